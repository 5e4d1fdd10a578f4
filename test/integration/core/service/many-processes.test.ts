// Several service processes on one PostgreSQL database, as a team runs them: an API process and two
// workers share one batch (and one worker is killed mid-way), two API processes share one key's rate
// limit, and two workers probing real SMTP servers on loopback share each host's pace.
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
import { worstExcess } from '../../../support/pacing.ts';
import { startReceiver } from '../../../support/webhook-receiver.ts';
import { startSocks5Server } from '../../../support/socks5-server.ts';
import { parseProxyUrl } from '../../../../electron/core/service/engines/live/socks-proxy.ts';

const children: ChildService[] = [];
let world: MailWorld | undefined;
afterEach(async () => {
  for (const child of children.splice(0)) await child.kill();
  await world?.close();
  world = undefined;
});

/** Quick to notice a dead worker: a claim lasts 2 s, a process unheard of for 3 s is gone. */
const quickLeases = { workLeaseMs: 2000, processHeartbeatMs: 250, processGoneAfterMs: 3000 };

async function start(
  config: Record<string, unknown>,
  role: 'api' | 'worker',
  liveEngine: 'sandbox' | 'smtp' = 'sandbox',
): Promise<ChildService> {
  const child = await startChildService(config, [], { role, liveEngine });
  children.push(child);
  return child;
}

describe.skipIf(testDatabase !== 'postgres')('several processes on one PostgreSQL database', () => {
  it('verifies a 50k batch once, bills it once and tells of it once with two workers, one killed mid-way', async () => {
    const place = await testServicePlace();
    const receiver = await startReceiver(() => 200);
    onTestFinished(() => receiver.close());
    const limits = { batchStatus: { limit: 100_000, windowSeconds: 60 } };
    const key = await prepareKey(place, { mode: 'live', limits, topUp: 60_000, webhookUrl: receiver.url });
    // Live keys get scripted verdicts here, paced by the worker: one host, so its rate is set out of the
    // way. Both workers look for due webhook deliveries every 20 ms.
    // The receiver is on loopback: allowed, as --allow-private-webhooks does.
    const config = {
      ...place,
      ...quickLeases,
      probesPerSecondPerHost: 1_000_000,
      deliveryTickMs: 20,
      allowPrivateWebhooks: true,
    };
    const apiProcess = await start(config, 'api');
    const doomed = await start(config, 'worker');
    const survivor = await start(config, 'worker');
    const api = apiClient(apiProcess, key);

    // Local parts that the scripted verdicts answer "valid": every address is billed.
    const emails = addresses(50_000, 'team.example', 'valid');
    const created = await api('POST', '/batches', { name: 'team', emails }, { 'Idempotency-Key': 'team-1' });
    expect(created.status).toBe(201);
    const id = created.body.id as string;
    const billedAtKill = await waitFor(async () => {
      const billed = (await api('GET', `/batches/${id}`)).body.summary.billed as number;
      return billed >= 5000 && billed;
    }, 60_000);
    // Killed while it holds chunks, which the other worker takes up once their lease runs out.
    const store = await openServiceStore(place);
    onTestFinished(() => store.db.close());
    const chunksOf = async (owner: string) =>
      (await store.db.all<{ chunk: number }>('SELECT chunk FROM work_chunks WHERE owner = ?', [owner])).map(String);
    const killed = await killWhileHolding(doomed, () => chunksOf(doomed.processId));
    expect(billedAtKill).toBeLessThan(50_000);

    const done = await waitFor(
      async () => {
        const status = await api('GET', `/batches/${id}`);
        return status.body.status === 'complete' && status.body;
      },
      120_000,
      250,
    );
    expect(done).toMatchObject({ submitted: 50_000, unique: 50_000, summary: { billed: 50_000 } });
    // The take-over, from the surviving worker's log: within a lease of the kill.
    const tookOver = firstLogged(survivor, new RegExp(`took over \\d+ chunks? of ${id} from ${doomed.processId}`));
    expect(tookOver, survivor.log.map((entry) => entry.line).join('\n')).toBeDefined();
    expect(tookOver! - killed.at).toBeLessThanOrEqual(quickLeases.workLeaseMs + 1500);
    const seen = new Map<string, number>();
    let cursor: string | undefined;
    do {
      const page = await api('GET', `/batches/${id}/results?limit=1000${cursor ? `&cursor=${cursor}` : ''}`);
      for (const row of page.body.data as { email: string; billed: boolean }[]) {
        expect(row.billed).toBe(true);
        seen.set(row.email, (seen.get(row.email) ?? 0) + 1);
      }
      cursor = page.body.next_cursor ?? undefined;
    } while (cursor);
    expect(seen.size).toBe(50_000);
    expect([...seen.values()].every((count) => count === 1)).toBe(true);
    // 100 free checks, then 49,900 from the balance: nothing spent twice.
    expect((await api('GET', '/account')).body).toMatchObject({ balance: 60_000 - 49_900, free_remaining: 0 });
    // batch.completed reached the endpoint once, though two workers were looking for deliveries.
    const completed = () =>
      receiver.received.filter((delivery) => {
        const event = JSON.parse(delivery.body.toString()) as { type: string; data: { id?: string } };
        return event.type === 'batch.completed' && JSON.stringify(event).includes(id);
      });
    await waitFor(() => completed().length > 0, 10_000);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(completed()).toHaveLength(1);
  }, 240_000);

  it('stops a process that the others took for gone, with exit code 1', async () => {
    const place = await testServicePlace();
    const worker = await start({ ...place, ...quickLeases }, 'worker');
    const exited = new Promise<number | null>((resolve) => worker.child.once('exit', (code) => resolve(code)));
    // What another process does when this one has not been heard from for too long.
    const store = await openServiceStore(place);
    await store.db.run('DELETE FROM service_processes');
    await store.db.close();
    const timeout = new Promise<string>((resolve) => setTimeout(() => resolve('still running after 10 s'), 10_000));
    expect(await Promise.race([exited, timeout])).toBe(1);
  }, 20_000);

  it("never lets two API processes together take more than one key's limit", async () => {
    const place = await testServicePlace();
    const rule = { limit: 25, windowSeconds: 1 };
    const key = await prepareKey(place, { mode: 'sandbox', limits: { other: rule } });
    const processes = [await start(place, 'api'), await start(place, 'api')];
    const accepted = new Map<string, number>();
    let refused = 0;
    // Both processes asked at once, in waves, for about three windows: bounded in count and time.
    const until = Date.now() + 3000;
    for (let wave = 0; wave < 60 && Date.now() < until; wave += 1) {
      const answers = await Promise.all(
        processes.flatMap((child) => Array.from({ length: 10 }, () => apiClient(child, key)('GET', '/account'))),
      );
      for (const answer of answers) {
        if (answer.status === 429) refused += 1;
        else {
          expect(answer.status).toBe(200);
          const window = answer.headers.get('X-RateLimit-Reset')!;
          accepted.set(window, (accepted.get(window) ?? 0) + 1);
        }
      }
    }
    expect(refused).toBeGreaterThan(0);
    // Each window let through at most the limit, though two processes answered; one that counted in its
    // own memory would have let through twice as many.
    expect(Math.max(...accepted.values())).toBe(rule.limit);
  }, 30_000);

  it.each([
    ['straight out', false],
    ['through two proxies, each way out held to its own budget', true],
  ])(
    'keeps each mail server within its rate and connection cap across two workers, %s',
    async (_, viaProxies) => {
      const hosts = ['alpha', 'beta', 'gamma'];
      // Four customers of one hosting company: four MX names, one server.
      const tenants = ['acme', 'widgets', 'gizmos', 'sprockets'];
      world = await startMailWorld({
        hosts: {
          ...Object.fromEntries(
            hosts.map((name, i) => [`mx.${name}.test`, { ip: `127.0.0.${i + 2}`, others: 'accept' as const }]),
          ),
          'mx1.hoster.test': {
            ip: '127.0.0.20',
            others: 'accept',
            aliases: tenants.map((name) => `${name}.mx.hoster.test`),
          },
        },
        domains: {
          ...Object.fromEntries(hosts.map((name) => [`${name}.test`, { mx: [`mx.${name}.test`] }])),
          ...Object.fromEntries(tenants.map((name) => [`${name}.test`, { mx: [`${name}.mx.hoster.test`] }])),
        },
      });
      const rate = 20;
      const place = await testServicePlace();
      const limits = { batchStatus: { limit: 100_000, windowSeconds: 60 } };
      const key = await prepareKey(place, { mode: 'live', limits, topUp: 1000 });
      const smtp = {
        helo: 'probe.sift.test',
        mailFrom: 'bounces@sift.test',
        resolvers: [world.resolver],
        port: world.smtpPort,
        timeoutMs: 1500,
        perHostRate: rate,
        perHostConcurrency: 2,
        rcptPerConnection: 5,
        greylistRetryMs: [100, 100],
        connectRetryMs: 100,
        backoffMs: 200,
      };
      const egresses = viaProxies ? ['127.0.0.81', '127.0.0.82'] : [];
      const proxies = await Promise.all(egresses.map((egress) => startSocks5Server({ egress })));
      onTestFinished(() => Promise.all(proxies.map((proxy) => proxy.kill())).then(() => undefined));
      if (viaProxies) world.acceptOnlyFrom(egresses, { firewall: true });
      const config = {
        ...place,
        ...quickLeases,
        smtp: { ...smtp, proxies: proxies.map((proxy) => parseProxyUrl(proxy.url)) },
      };
      const apiProcess = await start(config, 'api', 'smtp');
      await start(config, 'worker', 'smtp');
      await start(config, 'worker', 'smtp');
      const api = apiClient(apiProcess, key);

      const emails = [...hosts, ...tenants].flatMap((name) => addresses(30, `${name}.test`, 'person'));
      const created = await api('POST', '/batches', { name: 'paced', emails });
      expect(created.status).toBe(201);
      const done = await waitFor(
        async () => {
          const status = await api('GET', `/batches/${created.body.id}`);
          return status.body.status === 'complete' && status.body;
        },
        60_000,
        100,
      );
      expect(done.summary).toMatchObject({ catch_all: emails.length, billed: emails.length });
      for (const name of [...hosts.map((host) => `mx.${host}.test`), 'mx1.hoster.test']) {
        const log = world.logs[name]!;
        const domains = name === 'mx1.hoster.test' ? tenants : [name.split('.')[1]!];
        const probed = log.rcpts.filter((rcpt) => rcpt.address.startsWith('person'));
        // Every address asked once, by whichever worker held the domain.
        expect(probed.map((rcpt) => rcpt.address).sort()).toEqual(
          domains.flatMap((domain) => addresses(30, `${domain}.test`, 'person')).sort(),
        );
        // The configured rate per way out, give or take one probe a second for loopback's delivery jitter.
        for (const from of viaProxies ? egresses : [undefined]) {
          const times = log.rcpts.filter((rcpt) => from === undefined || rcpt.from === from).map((rcpt) => rcpt.at);
          expect(worstExcess(times, rate)).toBeLessThanOrEqual(1);
          expect(from === undefined ? log.peakOpen : (log.peakOpenFrom[from] ?? 0)).toBeLessThanOrEqual(2);
        }
      }
      // Through proxies, every conversation came from one of them, and both were used.
      if (viaProxies) {
        const froms = new Set(Object.values(world.logs).flatMap((log) => log.rcpts.map((rcpt) => rcpt.from)));
        expect([...froms].sort()).toEqual(egresses);
      }
    },
    120_000,
  );
});
