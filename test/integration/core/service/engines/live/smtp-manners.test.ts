// How a mail server's admin sees the prober: a few refused recipients per connection at most (servers
// count every refused command against a client), a "450 4.7.1 too many recipients" taken as "slow down"
// for the whole host, and a sender that servers of unrelated domains refuse named on GET /account, while
// one domain refusing is only that domain's policy.
import { afterAll, beforeAll, expect, it, onTestFinished } from 'vitest';
import { runBatch, startEngineService } from '../../../../../support/engine-harness.ts';
import { startMailWorld, type MailWorld } from '../../../../../support/mail-world.ts';

const spamhaus = {
  code: 554,
  text: '5.7.1 Service unavailable; Client host [127.0.0.1] blocked using zen.spamhaus.org',
};
const microsoft = { code: 550, text: '5.7.606 Access denied, banned sending IP [127.0.0.1]' };
let world: MailWorld;
beforeAll(async () => {
  world = await startMailWorld({
    hosts: {
      'mx.many.test': { ip: '127.0.0.2', mailboxes: { ann: 'accept' }, others: 'reject' },
      'mx.rated.test': { ip: '127.0.0.3', others: 'accept', rcptRateLimit: { max: 4, perMs: 800 } },
      'mx.listed-a.test': { ip: '127.0.0.4', others: 'accept', refuseClient: spamhaus },
      'mx.listed-b.test': { ip: '127.0.0.5', others: 'accept', refuseClient: spamhaus },
      'mx.listed-c.test': { ip: '127.0.0.6', others: 'accept', refuseClient: microsoft },
      'mx.fine.test': { ip: '127.0.0.7', others: 'accept' },
    },
    domains: Object.fromEntries(
      ['many', 'rated', 'listed-a', 'listed-b', 'listed-c', 'fine'].map((name) => [
        `${name}.test`,
        { mx: [`mx.${name}.test`] },
      ]),
    ),
  });
});
afterAll(async () => {
  await world?.close();
});

it('closes a connection after a few refused recipients and asks the rest on the next', async () => {
  const run = await startEngineService(world);
  onTestFinished(() => run.service.close());
  const nobodies = Array.from({ length: 14 }, (_, i) => `nobody${i}@many.test`);
  const { status, rows } = await runBatch(run, ['ann@many.test', ...nobodies]);
  expect(status.status).toBe('complete');
  expect(rows.get('ann@many.test')).toMatchObject({ result: 'valid' });
  for (const email of nobodies) expect(rows.get(email)).toMatchObject({ result: 'invalid', billed: true });
  const log = world.logs['mx.many.test']!;
  // 15 refusals (the catch-all probe's and 14 addresses'), never more than 5 on one connection.
  expect(log.failedPerConnection.reduce((a, b) => a + b, 0)).toBe(15);
  expect(Math.max(...log.failedPerConnection)).toBeLessThanOrEqual(5);
  expect(log.failedPerConnection.length).toBeGreaterThanOrEqual(3);
  // Each address was asked once: a connection closed early asked nobody twice.
  expect(log.rcpts.filter((rcpt) => !rcpt.address.startsWith('sift-'))).toHaveLength(15);
});

it('slows the whole host on a 450 4.7.1 rate reply instead of pressing on', async () => {
  const run = await startEngineService(world, { backoffMs: 1000, greylistRetryMs: [100, 100, 100, 100] });
  onTestFinished(() => run.service.close());
  const emails = Array.from({ length: 12 }, (_, i) => `person${i}@rated.test`);
  const { status, rows } = await runBatch(run, emails, 15_000);
  expect(status.status).toBe('complete');
  for (const email of emails) expect(rows.get(email)).toMatchObject({ result: 'catch_all', billed: true });
  // Each rate reply ended its conversation and paused the host: a handful, not one per address asked.
  const log = world.logs['mx.rated.test']!;
  expect(log.rateLimited).toBeGreaterThan(0);
  expect(log.rateLimited).toBeLessThanOrEqual(4);
  expect(Math.max(...log.failedPerConnection)).toBe(1);
});

it('names a sender that servers of three unrelated domains refuse, and not one that a single domain refuses', async () => {
  const one = await startEngineService(world);
  onTestFinished(() => one.service.close());
  const single = await runBatch(one, ['ann@listed-a.test', 'bob@listed-a.test', 'ann@fine.test']);
  expect(single.rows.get('ann@listed-a.test')).toMatchObject({ result: 'unknown', reason: 'sender_blocklisted' });
  expect((await one.api('GET', '/account')).body.sender).toEqual({ state: 'not_refused' });

  const three = await startEngineService(world);
  onTestFinished(() => three.service.close());
  const emails = ['ann', 'bob', 'carol'].flatMap((local) =>
    ['listed-a', 'listed-b', 'listed-c'].map((name) => `${local}@${name}.test`),
  );
  const { status, rows } = await runBatch(three, emails);
  expect(status.status).toBe('complete');
  for (const row of rows.values()) {
    expect(row).toMatchObject({ result: 'unknown', reason: 'sender_blocklisted', billed: false });
  }
  // The first refusal ended each conversation: the other addresses there were not asked again.
  expect(world.logs['mx.listed-c.test']!.failedPerConnection.every((count) => count === 1)).toBe(true);
  const sender = (await three.api('GET', '/account')).body.sender;
  expect(sender).toMatchObject({ state: 'refused', refused_by: 3, way_out: 'direct' });
  expect(sender.reply).toMatch(/^55[04] 5\.7\./);
  expect(sender.blocklist).toMatch(/^(Spamhaus|Microsoft)$/);
  expect(sender.removal_url).toMatch(/^https:\/\//);
});
