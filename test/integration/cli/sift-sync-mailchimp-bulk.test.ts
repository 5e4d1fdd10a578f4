// A Mailchimp audience too large for a call per member, written through Mailchimp's batch operations
// (mailchimp-batches.ts on both sides): the same calls with the same bodies (tags sent as a sync), each
// member's in the order the plan lists them, and a sync stopped while its batch runs reads that batch's
// results when run again, never sending it twice.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { subscriberHash, type ChimpMember } from '../../support/mailchimp-server.ts';
import { startMailchimpSync, verdictKinds as kinds, type MailchimpSync } from '../../support/mailchimp-sync.ts';
import { runSift } from '../../support/run-sift.ts';
import { runSiftHere } from '../../support/run-sift-here.ts';

let shop: MailchimpSync;

/** An audience of `size` subscribed members, a quarter of each verdict. */
function audience(id: string, size: number) {
  const members = new Map<string, ChimpMember>();
  for (let i = 0; i < size; i += 1) {
    const email = `${kinds[i % 4]![0]}.${id}${i}@${id}${i % 30}.example.com`;
    members.set(subscriberHash(email), { email, name: '', status: 'subscribed', tags: new Set(['VIP']) });
  }
  shop.chimp.audiences.set(id, { name: id, members });
  return members;
}

beforeAll(async () => {
  shop = await startMailchimpSync(6000);
});
afterAll(() => shop?.close());

it('writes 2,400 tags in a batch for each tag, then archives each invalid member after its tag', async () => {
  const members = audience('big', 2400);
  const writesBefore = shop.chimp.writes.length;
  const written = await runSiftHere(
    ['sync', 'shop', 'big', '--base-url', shop.service.baseUrl, '--archive-invalid', '--write-back'],
    shop.env,
  );
  expect(written.code, written.stderr).toBe(0);
  expect(written.stdout).toContain('Written: 3000 changes.');
  // A batch for each of the four tags, and one for the 600 archives.
  expect(shop.chimp.batchesRun()).toBe(5);
  for (const member of members.values()) {
    const [kind, tag] = kinds.find(([prefix]) => member.email.startsWith(`${prefix}.`))!;
    expect([member.status, ...[...member.tags].sort()], member.email).toEqual(
      kind === 'invalid' ? ['archived', 'VIP', tag] : ['subscribed', 'VIP', tag],
    );
  }
  const writes = shop.chimp.writes.slice(writesBefore);
  expect(writes).toHaveLength(3000);
  // The same call as alone: every sift tag but the verdict's made inactive, sent as a sync.
  const first = writes.find((write) => write.path.endsWith('/tags'))!;
  expect(first.body).toEqual({
    is_syncing: true,
    tags: [
      { name: 'sift-valid', status: 'active' },
      { name: 'sift-invalid', status: 'inactive' },
      { name: 'sift-catch-all', status: 'inactive' },
      { name: 'sift-unknown', status: 'inactive' },
      { name: 'sift-risky', status: 'inactive' },
    ],
  });
  const order = writes.map((write) => `${write.method} ${write.path}`);
  for (const [hash, member] of members)
    if (member.email.startsWith('invalid.'))
      expect(order.indexOf(`DELETE /3.0/lists/big/members/${hash}`), member.email).toBeGreaterThan(
        order.indexOf(`POST /3.0/lists/big/members/${hash}/tags`),
      );
});

it('reads the results of a batch sent before a stop, never sending it again', async () => {
  const members = audience('stop', 2100);
  shop.chimp.holdBatches(true);
  const batchesBefore = shop.chimp.batchesRun();
  const pollsBefore = shop.chimp.batchPolls();
  const run = runSift(['sync', 'shop', 'stop', '--base-url', shop.service.baseUrl, '--write-back'], shop.env);
  // Stopped once Sift has kept the batch's id and waits for it (it asks how it is going). A batch whose id
  // had not come back when Sift stopped may be sent again: docs/connectors.md says so.
  for (const started = Date.now(); shop.chimp.batchPolls() === pollsBefore && Date.now() - started < 60_000;)
    await new Promise((resolve) => setTimeout(resolve, 10));
  run.child.kill('SIGKILL');
  expect((await run).signal).toBe('SIGKILL');
  expect(shop.chimp.batchesRun()).toBe(batchesBefore + 1);
  shop.chimp.holdBatches(false);

  const resumed = await runSiftHere(
    ['sync', 'shop', 'stop', '--base-url', shop.service.baseUrl, '--write-back'],
    shop.env,
  );
  expect(resumed.code, resumed.stderr).toBe(0);
  expect(resumed.stdout).toContain('Written: 2100 changes.');
  // The batch sent before the stop read back, and one for each of the other three tags.
  expect(shop.chimp.batchesRun()).toBe(batchesBefore + 4);
  const sends = new Map<string, number>();
  for (const write of shop.chimp.writes.filter((each) => each.path.startsWith('/3.0/lists/stop/')))
    sends.set(write.path, (sends.get(write.path) ?? 0) + 1);
  expect(sends.size).toBe(2100);
  expect([...sends.values()].every((count) => count === 1)).toBe(true);
  for (const member of members.values()) expect(member.tags.size, member.email).toBe(2);
});
