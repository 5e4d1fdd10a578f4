// The results screen's breakdown: addresses to check per mailbox provider and the most used domains;
// bad syntax is not counted.
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { mailboxProviders } from '../../../../../electron/core/email/mailbox-providers.ts';
import { openListStore } from '../../../../../electron/core/jobs/store/list-store.ts';

describe('list breakdown', () => {
  it('counts providers by domain (or as the service found them) and the most used domains', async () => {
    const list = openListStore(join(await mkdtemp(join(tmpdir(), 'sift-breakdown-')), 'list.sqlite'));
    const keys = ['a@gmail.com', 'b@googlemail.com', 'c@outlook.com', 'd@acme.example', 'e@acme.example', 'f@@x'];
    list.appendImport(
      keys.map((key, i) => ({
        id: i + 1,
        key,
        address: key,
        firstRow: i + 1,
        sendable: !key.includes('@@'),
        role: false,
        disposable: false,
        suggestion: null,
      })),
      1,
      new Int32Array(keys.map((_, i) => i + 1)),
    );
    expect(list.providerCounts(mailboxProviders)).toEqual([
      { provider: 'Google', count: 2 },
      { provider: 'Other', count: 2 },
      { provider: 'Microsoft', count: 1 },
    ]);
    // Where the service found the provider from the mail hosts, that wins over the domain's name.
    list.recordResults(0, [{ id: 4, result: 'valid', billed: true, reason: null, provider: 'Google' }], {});
    expect(list.providerCounts(mailboxProviders)).toEqual([
      { provider: 'Google', count: 3 },
      { provider: 'Microsoft', count: 1 },
      { provider: 'Other', count: 1 },
    ]);
    expect(list.domainCounts(2)).toEqual([
      { domain: 'acme.example', count: 2 },
      { domain: 'gmail.com', count: 1 },
    ]);
  });
});
