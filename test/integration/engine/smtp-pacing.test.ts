// Pacing, from the mail servers' own logs: no host (and no big provider, whose several MX names share
// one budget) is ever probed faster than the configured rate, while many hosts are probed in parallel.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startMailWorld, type HostLog, type MailWorld } from '../../support/mail-world.ts';
import { runBatch, startEngineService, type EngineRun } from '../../support/engine-harness.ts';

const rate = 20;
let world: MailWorld;
let run: EngineRun;

const otherHosts = ['alpha', 'beta', 'gamma', 'delta'];
beforeAll(async () => {
  world = await startMailWorld({
    hosts: {
      ...Object.fromEntries(
        otherHosts.map((name, i) => [`mx.${name}.test`, { ip: `127.0.0.${i + 2}`, others: 'accept' as const }]),
      ),
      'aspmx.l.google.com': { ip: '127.0.0.10', others: 'accept' },
      'alt1.aspmx.l.google.com': { ip: '127.0.0.11', others: 'accept' },
    },
    domains: {
      ...Object.fromEntries(otherHosts.map((name) => [`${name}.test`, { mx: [`mx.${name}.test`] }])),
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

/** The most probes seen in any window, against what the rate allows there (one at its start, then `rate` a second). */
function worstExcess(times: number[]): number {
  const sorted = [...times].sort((a, b) => a - b);
  let worst = -Infinity;
  // Loopback delivers a probe some milliseconds late now and then, which makes the next gap look short:
  // up to 16 ms seen while the whole suite loads both cores. Half a gap (25 of 50 ms) is allowed for it;
  // an engine that went even a little faster than the rate would still show over any longer window.
  const jitterMs = 25;
  for (let i = 0; i < sorted.length; i += 1) {
    for (let j = i + 1; j < sorted.length; j += 1) {
      const allowed = ((sorted[j]! - sorted[i]! + jitterMs) * rate) / 1000 + 1;
      worst = Math.max(worst, j - i + 1 - allowed);
    }
  }
  return worst;
}

const times = (...logs: HostLog[]) => logs.flatMap((log) => log.rcpts.map((rcpt) => rcpt.at));

it('keeps every mail host, and each big provider as a whole, within its rate', async () => {
  const emails = [
    ...otherHosts.flatMap((name) => Array.from({ length: 25 }, (_, i) => `person${i}@${name}.test`)),
    ...Array.from({ length: 15 }, (_, i) => `one${i}@workspace-one.test`),
    ...Array.from({ length: 15 }, (_, i) => `two${i}@workspace-two.test`),
  ];
  const { status } = await runBatch(run, emails, 30_000);
  expect(status.summary).toMatchObject({ valid: 0, catch_all: emails.length, billed: emails.length });
  for (const name of otherHosts) {
    const log = world.logs[`mx.${name}.test`]!;
    // 25 addresses and one catch-all probe, on two connections (20 RCPTs per connection at most).
    expect(log.rcpts).toHaveLength(26);
    expect(worstExcess(times(log))).toBeLessThanOrEqual(0);
  }
  // Google's two MX names share one budget: together they stay within one host's rate.
  const google = times(world.logs['aspmx.l.google.com']!, world.logs['alt1.aspmx.l.google.com']!);
  expect(google).toHaveLength(32);
  expect(worstExcess(google)).toBeLessThanOrEqual(0);
  // The hosts were probed side by side, not one after another.
  const starts = otherHosts.map((name) => Math.min(...times(world.logs[`mx.${name}.test`]!)));
  const ends = otherHosts.map((name) => Math.max(...times(world.logs[`mx.${name}.test`]!)));
  expect(Math.max(...starts)).toBeLessThan(Math.min(...ends));
});
