// What a person writes for a rule's domain, and which rule decides an address: its domain or the nearest
// parent with a rule.
import { describe, expect, it } from 'vitest';
import { parseRuleDomain } from '../../../../electron/core/rules/index.ts';
import { ruleMatcher } from '../../../../electron/core/rules/rule-matcher.ts';

describe('rules per domain', () => {
  it('takes a domain however it is written, in ASCII, and refuses an address', () => {
    for (const written of ['Example.COM', '@example.com', '*@example.com', '*.example.com', ' example.com '])
      expect(parseRuleDomain(written)).toEqual({ domain: 'example.com' });
    expect(parseRuleDomain('bücher.example')).toEqual({ domain: 'xn--bcher-kva.example' });
    expect(parseRuleDomain('ann@example.com')).toMatchObject({ reason: 'an address: a rule is for a whole domain' });
    expect(parseRuleDomain('not a domain')).toMatchObject({ reason: 'not a domain' });
    expect(parseRuleDomain('')).toMatchObject({ reason: 'empty' });
  });

  it('decides an address by its domain or the nearest parent with a rule', () => {
    const match = ruleMatcher([
      { domain: 'example.com', action: 'keep' },
      { domain: 'mail.example.com', action: 'leave_out' },
    ]).matches;
    expect(match('ann@example.com')).toEqual({ domain: 'example.com', action: 'keep' });
    expect(match('ann@eu.mail.example.com')).toEqual({ domain: 'mail.example.com', action: 'leave_out' });
    expect(match('ann@sales.example.com')).toEqual({ domain: 'example.com', action: 'keep' });
    expect(match('ann@example.org')).toBeNull();
    expect(ruleMatcher([]).empty).toBe(true);
  });
});
