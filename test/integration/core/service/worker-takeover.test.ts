// A team's worker killed while it checks live addresses: the domains it held are taken over by the other
// worker within a lease of its last renewal (from the survivor's log), every address gets one verdict and
// one charge, and the kill costs at most the addresses it had in flight. `npm test` runs it with 2 s
// leases; the soak (`npm run test:soak`) with the defaults, where the take-over must come within 20 s.
import { afterEach, describe, expect, it, onTestFinished } from 'vitest';
import { openServiceStore } from '../../../../electron/core/service/verification-service.ts';
import { startChildService, type ChildService } from '../../../support/child-service.ts';
import { firstLogged, killWhileHolding } from '../../../support/kill-holding.ts';
import { startMailWorld, type MailWorld } from '../../../support/mail-world.ts';
import {
  addresses,
  apiClient,
  prepareKey,
  testDatabase,
  testServicePlace,
  waitFor,
} from '../../../support/service-harness.ts';

const children: ChildService[] = [];
let world: MailWorld | undefined;
afterEach(async () => {
  for (const child of children.splice(0)) await child.kill();
  await world?.close();
  world = undefined;
});

const defaultLeases = process.env.SIFT_SOAK_DEFAULT_LEASES === '1';
/** The defaults (15 s leases, renewed every 5 s; a process unheard of for 15 s is gone), or quick ones. */
const leases = defaultLeases ? {} : { workLeaseMs: 2000, processHeartbeatMs: 250, processGoneAfterMs: 2000 };
const takeOverWithinMs = defaultLeases ? 20_000 : 2000 + 1500;

describe.skipIf(testDatabase !== 'postgres')('a worker killed mid-batch', () => {
  it('has its domains taken over within a lease, every address checked and billed once', async () => {
    const domains = ['d1', 'd2', 'd3', 'd4', 'd5', 'd6'];
    world = await startMailWorld({
      hosts: Object.fromEntries(
        domains.map((name, i) => [`mx.${name}.test`, { ip: `127.0.0.${40 + i}`, others: 'accept' as const }]),
      ),
      domains: Object.fromEntries(domains.map((name) => [`${name}.test`, { mx: [`mx.${name}.test`] }])),
    });
    const place = await testServicePlace();
    const key = await prepareKey(place, {
      mode: 'live',
      limits: { batchStatus: { limit: 100_000, windowSeconds: 60 } },
      topUp: 1000,
    });
    const rcptPerConnection = 5;
    const smtp = {
      helo: 'probe.sift.test',
      mailFrom: 'bounces@sift.test',
      resolvers: [world.resolver],
      port: world.smtpPort,
      timeoutMs: 1500,
      // Slow enough that each worker is always in the middle of some domain's conversation.
      perHostRate: 4,
      perHostConcurrency: 1,
      rcptPerConnection,
      connectRetryMs: 100,
    };
    const config = { ...place, ...leases, smtp };
    const start = async (role: 'api' | 'worker') => {
      const child = await startChildService(config, [], { role, liveEngine: 'smtp' });
      children.push(child);
      return child;
    };
    const api = apiClient(await start('api'), key);
    const doomed = await start('worker');
    const survivor = await start('worker');

    const emails = domains.flatMap((name) => addresses(24, `${name}.test`, 'person'));
    const created = await api('POST', '/batches', { name: 'takeover', emails }, { 'Idempotency-Key': 'takeover-1' });
    expect(created.status).toBe(201);
    const id = created.body.id as string;
    await waitFor(async () => (await api('GET', `/batches/${id}`)).body.summary.billed >= 10, 30_000);

    const store = await openServiceStore(place);
    onTestFinished(() => store.db.close());
    const heldBy = async (owner: string) =>
      (await store.db.all<{ domain: string }>('SELECT domain FROM probe_domains WHERE lease_owner = ?', [owner])).map(
        (row) => row.domain,
      );
    const killed = await killWhileHolding(doomed, () => heldBy(doomed.processId));

    const done = await waitFor(
      async () => {
        const status = await api('GET', `/batches/${id}`);
        return status.body.status === 'complete' && status.body;
      },
      90_000,
      200,
    );
    expect(done).toMatchObject({
      submitted: emails.length,
      summary: { catch_all: emails.length, billed: emails.length },
    });

    // Each domain it held was taken up by the survivor, and soon: from the survivor's own log.
    const pattern = (domain: string) => new RegExp(`took over the addresses at ${domain} from ${doomed.processId}`);
    const takeovers = killed.held.map((domain) => firstLogged(survivor, pattern(domain)));
    expect(
      takeovers.every((at) => at !== undefined),
      survivor.log.map((entry) => entry.line).join('\n'),
    ).toBe(true);
    for (const at of takeovers) expect(at! - killed.at).toBeLessThanOrEqual(takeOverWithinMs);

    // One verdict and one charge per address; asked again at most the ones it had in flight.
    const seen = new Map<string, number>();
    let cursor: string | undefined;
    do {
      const page = await api('GET', `/batches/${id}/results?limit=1000${cursor ? `&cursor=${cursor}` : ''}`);
      for (const row of page.body.data as { email: string }[]) seen.set(row.email, (seen.get(row.email) ?? 0) + 1);
      cursor = page.body.next_cursor ?? undefined;
    } while (cursor);
    expect(seen.size).toBe(emails.length);
    expect([...seen.values()].every((count) => count === 1)).toBe(true);
    expect((await api('GET', '/account')).body).toMatchObject({ balance: 1000 - (emails.length - 100) });
    const asked = Object.values(world.logs).flatMap((log) =>
      log.rcpts.filter((rcpt) => rcpt.address.startsWith('person')),
    );
    expect(asked.length - emails.length).toBeLessThanOrEqual(rcptPerConnection * killed.held.length);
  }, 180_000);
});
