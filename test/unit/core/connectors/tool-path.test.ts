// Every path Sift sends a tool is one helper's: an id or a name from outside is one encoded step, never `..`.
import { describe, expect, it } from 'vitest';
import { toolPath } from '../../../../electron/core/connectors/tool-path.ts';
import {
  checkedId,
  hubspotRecordId,
  mailchimpMemberId,
  mailmanMemberId,
} from '../../../../electron/core/connectors/tool-ids.ts';

describe('toolPath', () => {
  it('encodes each value as one step and each query value as a value', () => {
    const list = toolPath`/lists/${'a/b c'}`;
    expect(toolPath`${list}/members/${'x?y#z'}?status=${'a&b=c'}&count=${1000}`.text).toBe(
      '/lists/a%2Fb%20c/members/x%3Fy%23z?status=a%26b%3Dc&count=1000',
    );
    // A path given whole goes in as it is, and what follows its query is a query value.
    const query = toolPath`/members?fields=${'a,b'}`;
    expect(toolPath`${query}&after=${'../x'}`.text).toBe('/members?fields=a%2Cb&after=..%2Fx');
  });

  it('refuses an id that is no step, or a step up or in place', () => {
    for (const id of ['..', '.', ''])
      expect(() => toolPath`/lists/l1/members/${id}`).toThrow(/an id or name from outside is one step of the path/);
    // Encoded, a dot-dot that is not a whole step is a step like any other.
    expect(toolPath`/m/${'..a'}/${'%2e%2e'}`.text).toBe('/m/..a/%252e%252e');
  });
});

describe('checkedId', () => {
  it('takes a Mailchimp id only when it is the MD5 of the lower-cased address', () => {
    const id = '0d5c9c4e5e5a6fba6fb1e4e5fe4c8d6c';
    expect(() => checkedId('Mailchimp', 'h', mailchimpMemberId, id, 'A@Example.com')).toThrow(
      'Mailchimp at h answered a member id Sift will not write by ("0d5c9c4e5e5a6fba6fb1e4e5fe4c8d6c" for A@Example.com): Mailchimp\'s ids are the MD5 of the lower-cased address, 32 hex digits. Nothing was written.',
    );
    const hash = 'b418773a2c51fb9777a1648346fa7394'; // md5('a@example.com')
    expect(checkedId('Mailchimp', 'h', mailchimpMemberId, hash, 'A@Example.com')).toBe(hash);
    expect(() => checkedId('Mailchimp', 'h', mailchimpMemberId, '..', 'a@example.com')).toThrow(/"\.\."/);
  });

  it('takes a HubSpot id only as a number and a Mailman id only as hex, never a formula', () => {
    expect(checkedId('HubSpot', 'h', hubspotRecordId, '1251')).toBe('1251');
    for (const id of ['=1+1', '-1', '12a', '0', ''])
      expect(() => checkedId('HubSpot', 'h', hubspotRecordId, id)).toThrow(/HubSpot's ids are a number/);
    expect(checkedId('Mailman', 'h', mailmanMemberId, 'a'.repeat(32))).toBe('a'.repeat(32));
    expect(() => checkedId('Mailman', 'h', mailmanMemberId, `\u001b[2J${'a'.repeat(28)}`)).toThrow(
      `("${'a'.repeat(28)}")`,
    );
  });
});
