// Pacing, from the mail servers' own logs: no host (and no big provider, whose several MX names share
// one budget) is ever probed faster than the configured rate, while many hosts are probed in parallel.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startMailWorld, type HostLog, type MailWorld } from '../../../../../support/mail-world.ts';
import { runBatch, startEngineService, type EngineRun } from '../../../../../support/engine-harness.ts';
import { watchDeliveryJitter, worstExcess } from '../../../../../support/pacing.ts';

const rate = 20;
let world: MailWorld;
let run: EngineRun;

const otherHosts = ['alpha', 'beta', 'gamma', 'delta'];
/** Four customers of one hosting company: each has its own MX name, all on one server. */
const tenants = ['acme', 'widgets', 'gizmos', 'sprockets'];
beforeAll(async () => {
  world = await startMailWorld({
    hosts: {
      ...Object.fromEntries(
        otherHosts.map((name, i) => [`mx.${name}.test`, { ip: `127.0.0.${i + 2}`, others: 'accept' as const }]),
      ),
      'mx1.hoster.test': {
        ip: '127.0.0.20',
        others: 'accept',
        aliases: tenants.map((name) => `${name}.mx.hoster.test`),
      },
      'aspmx.l.google.com': { ip: '127.0.0.10', others: 'accept' },
      'alt1.aspmx.l.google.com': { ip: '127.0.0.11', others: 'accept' },
    },
    domains: {
      ...Object.fromEntries(otherHosts.map((name) => [`${name}.test`, { mx: [`mx.${name}.test`] }])),
      ...Object.fromEntries(tenants.map((name) => [`${name}.test`, { mx: [`${name}.mx.hoster.test`] }])),
      'workspace-one.test': { mx: ['aspmx.l.google.com'] },
      'workspace-two.test': { mx: ['alt1.aspmx.l.google.com'] },
    },
  });
  run = await startEngineService(world, { perHostRate: rate, perHostConcurrency: 2 });
});
afterAll(async () => {
  await run?.service.close();
  await world?.close();
});

const times = (...logs: HostLog[]) => logs.flatMap((log) => log.rcpts.map((rcpt) => rcpt.at));

it('keeps every mail host, and each big provider as a whole, within its rate', async () => {
  const emails = [
    ...otherHosts.flatMap((name) => Array.from({ length: 25 }, (_, i) => `person${i}@${name}.test`)),
    ...Array.from({ length: 15 }, (_, i) => `one${i}@workspace-one.test`),
    ...Array.from({ length: 15 }, (_, i) => `two${i}@workspace-two.test`),
  ];
  const jitter = watchDeliveryJitter();
  const { status } = await runBatch(run, emails, 15_000);
  const jitterMs = jitter.jitterMs();
  expect(status.summary).toMatchObject({ valid: 0, catch_all: emails.length, billed: emails.length });
  for (const name of otherHosts) {
    const log = world.logs[`mx.${name}.test`]!;
    // 25 addresses and one catch-all probe, on two connections (20 RCPTs per connection at most).
    expect(log.rcpts).toHaveLength(26);
    expect(worstExcess(times(log), rate, jitterMs)).toBeLessThanOrEqual(0);
  }
  // Google's two MX names share one budget: together they stay within one host's rate.
  const google = times(world.logs['aspmx.l.google.com']!, world.logs['alt1.aspmx.l.google.com']!);
  expect(google).toHaveLength(32);
  expect(worstExcess(google, rate, jitterMs)).toBeLessThanOrEqual(0);
  // The hosts were probed side by side, not one after another.
  const starts = otherHosts.map((name) => Math.min(...times(world.logs[`mx.${name}.test`]!)));
  const ends = otherHosts.map((name) => Math.max(...times(world.logs[`mx.${name}.test`]!)));
  expect(Math.max(...starts)).toBeLessThan(Math.min(...ends));
});

it('holds one budget and one connection cap per mail server, however many MX names point at it', async () => {
  const emails = tenants.flatMap((name) => Array.from({ length: 12 }, (_, i) => `member${i}@${name}.test`));
  const jitter = watchDeliveryJitter();
  const { status } = await runBatch(run, emails, 15_000);
  const jitterMs = jitter.jitterMs();
  expect(status.summary).toMatchObject({ catch_all: emails.length, billed: emails.length });
  const log = world.logs['mx1.hoster.test']!;
  // Every address, plus each domain's catch-all probe, arrived at the one server.
  expect(log.rcpts).toHaveLength(emails.length + tenants.length);
  // Within the rate, give or take the one probe a second the issue allows for loopback's delivery jitter
  // on a loaded machine (a budget per MX name went 38 over here).
  expect(worstExcess(times(log), rate, jitterMs)).toBeLessThanOrEqual(1);
  expect(log.peakOpen).toBeGreaterThan(0);
  expect(log.peakOpen).toBeLessThanOrEqual(2);
});
