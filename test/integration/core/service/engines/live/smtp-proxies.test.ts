// Live checks through SOCKS5 proxies, against mail servers that accept only the proxies' outgoing
// addresses: every conversation arrives through a proxy, the verdicts are those of a direct run, a
// proxy killed mid-batch hands its domains to the other without an address turning `unknown` or being
// billed twice, and a proxy that cannot be used is named in a sentence that says why.
import { afterAll, beforeAll, expect, it, onTestFinished } from 'vitest';
import { checkProxy, describeProxyCheck } from '../../../../../../electron/core/service/engines/live/proxy-check.ts';
import { smtpSettings } from '../../../../../../electron/core/service/engines/live/smtp-settings.ts';
import { parseProxyUrl } from '../../../../../../electron/core/service/engines/live/socks-proxy.ts';
import { runBatch, startEngineService, type Row } from '../../../../../support/engine-harness.ts';
import { startMailWorld, type MailWorld } from '../../../../../support/mail-world.ts';
import { watchDeliveryJitter, worstExcess } from '../../../../../support/pacing.ts';
import { waitFor } from '../../../../../support/service-harness.ts';
import { startSocks5Server } from '../../../../../support/socks5-server.ts';

const domains = ['alpha', 'beta', 'gamma', 'delta', 'epsilon', 'zeta'];
/** Four customers of one hosting company: four MX names, one server. */
const tenants = ['acme', 'widgets', 'gizmos', 'sprockets'];
let world: MailWorld;
beforeAll(async () => {
  world = await startMailWorld({
    hosts: {
      ...Object.fromEntries(
        domains.map((name, i) => [
          `mx.${name}.test`,
          { ip: `127.0.0.${i + 2}`, mailboxes: { ann: 'accept' as const }, others: 'reject' as const },
        ]),
      ),
      'mx1.hoster.test': {
        ip: '127.0.0.20',
        others: 'accept',
        aliases: tenants.map((name) => `${name}.mx.hoster.test`),
      },
    },
    domains: {
      ...Object.fromEntries(domains.map((name) => [`${name}.test`, { mx: [`mx.${name}.test`] }])),
      ...Object.fromEntries(tenants.map((name) => [`${name}.test`, { mx: [`${name}.mx.hoster.test`] }])),
    },
  });
});
afterAll(async () => {
  await world?.close();
});

/** Per domain: ann, who has a mailbox, and people who have none. */
const people = (count: number) =>
  domains.flatMap((name) => Array.from({ length: count }, (_, i) => `${i === 0 ? 'ann' : `nobody${i}`}@${name}.test`));
const verdictsOf = (rows: Map<string, Row>) =>
  new Map([...rows].map(([email, row]) => [email, `${row.result}/${row.reason ?? ''}`]));
const connectionsNow = () => Object.values(world.logs).reduce((sum, log) => sum + log.connections, 0);

it('sends every conversation through the proxy, with the verdicts of a direct run', async () => {
  const emails = people(6);
  world.acceptOnlyFrom(undefined);
  const direct = await startEngineService(world);
  onTestFinished(() => direct.service.close());
  const straight = await runBatch(direct, emails);
  expect(straight.status.status).toBe('complete');

  const proxy = await startSocks5Server({ egress: '127.0.0.60', user: 'sift', password: 'pässword:1' });
  onTestFinished(() => proxy.kill());
  world.acceptOnlyFrom(['127.0.0.60']);
  const before = connectionsNow();
  const proxied = await startEngineService(world, { proxies: [parseProxyUrl(proxy.url)] });
  onTestFinished(() => proxied.service.close());
  const through = await runBatch(proxied, emails);
  expect(through.status.status).toBe('complete');
  expect(verdictsOf(through.rows)).toEqual(verdictsOf(straight.rows));
  expect([...through.rows.values()].filter((row) => row.result === 'valid')).toHaveLength(domains.length);
  // Every conversation the servers took came through the proxy; none was turned away.
  expect(proxy.relayed.length).toBe(connectionsNow() - before);
  expect(proxy.relayed.length).toBeGreaterThanOrEqual(domains.length);
  expect(Object.values(world.logs).every((log) => log.refused === 0)).toBe(true);
});

it('moves the work of a proxy that dies mid-batch to the other: no address unknown, none billed twice', async () => {
  const emails = people(30);
  const first = await startSocks5Server({ egress: '127.0.0.61' });
  const second = await startSocks5Server({ egress: '127.0.0.62' });
  onTestFinished(async () => {
    await Promise.all([first.kill(), second.kill()]);
  });
  world.acceptOnlyFrom(['127.0.0.61', '127.0.0.62']);
  // Slow enough that the batch is mid-way when a proxy dies: 5 probes a second per server.
  const run = await startEngineService(world, {
    perHostRate: 5,
    rcptPerConnection: 5,
    proxies: [parseProxyUrl(first.url), parseProxyUrl(second.url)],
  });
  onTestFinished(() => run.service.close());
  const errors: string[] = [];
  const originalError = console.error;
  console.error = (...parts: unknown[]) => void errors.push(parts.map(String).join(' '));
  onTestFinished(() => void (console.error = originalError));
  const spent = async () => {
    const { balance, free_remaining: free } = (await run.api('GET', '/account')).body as Record<string, number>;
    return -(balance! + free!);
  };
  const spentBefore = await spent();

  const batch = runBatch(run, emails, 60_000);
  await waitFor(() => first.relayed.length >= 2 && second.relayed.length >= 2, 20_000, 20);
  await first.kill();
  const { status, rows } = await batch;

  expect(status.status).toBe('complete');
  expect(rows.size).toBe(emails.length);
  expect([...rows.values()].filter((row) => row.result === 'unknown')).toEqual([]);
  // The proxy that lived took the dead one's domains.
  expect(second.relayed.length).toBeGreaterThan(first.relayed.length);
  // Billed once each: the account went down by exactly the billed addresses.
  const billed = [...rows.values()].filter((row) => row.billed).length;
  expect(status.summary.billed).toBe(billed);
  expect(billed).toBeGreaterThan(0);
  expect((await spent()) - spentBefore).toBe(billed);
  // The operator was told which proxy failed, by its label and without its password.
  expect(errors.some((line) => line.includes(first.label))).toBe(true);
}, 90_000);

it('holds each egress to its own budget at a shared mail server', async () => {
  const rate = 10;
  const first = await startSocks5Server({ egress: '127.0.0.65' });
  const second = await startSocks5Server({ egress: '127.0.0.66' });
  onTestFinished(async () => {
    await Promise.all([first.kill(), second.kill()]);
  });
  world.acceptOnlyFrom(['127.0.0.65', '127.0.0.66']);
  const run = await startEngineService(world, {
    perHostRate: rate,
    perHostConcurrency: 2,
    rcptPerConnection: 5,
    proxies: [parseProxyUrl(first.url), parseProxyUrl(second.url)],
  });
  onTestFinished(() => run.service.close());
  const log = world.logs['mx1.hoster.test']!;
  const startedAt = log.rcpts.length;
  const emails = tenants.flatMap((name) => Array.from({ length: 15 }, (_, i) => `member${i}@${name}.test`));
  const jitter = watchDeliveryJitter();
  const { status } = await runBatch(run, emails, 15_000);
  const jitterMs = jitter.jitterMs();
  expect(status.summary).toMatchObject({ catch_all: emails.length, billed: emails.length });
  const rcpts = log.rcpts.slice(startedAt);
  for (const egress of ['127.0.0.65', '127.0.0.66']) {
    const times = rcpts.filter((rcpt) => rcpt.from === egress).map((rcpt) => rcpt.at);
    // Both ways out were used, each within the rate (give or take one probe a second of loopback jitter)
    // and the connection cap at this server.
    expect(times.length).toBeGreaterThan(0);
    expect(worstExcess(times, rate, jitterMs)).toBeLessThanOrEqual(1);
    expect(log.peakOpenFrom[egress]).toBeLessThanOrEqual(2);
  }
});

it('names a proxy that cannot be used, and says why', async () => {
  const proxy = await startSocks5Server({ egress: '127.0.0.63', user: 'sift', password: 'right' });
  onTestFinished(() => proxy.kill());
  world.acceptOnlyFrom(undefined);
  const settings = smtpSettings({
    resolvers: [world.resolver],
    port: world.smtpPort,
    timeoutMs: 1500,
    port25ProbeDomains: ['alpha.test'],
  });
  const wrong = parseProxyUrl(proxy.url.replace(':right@', ':wrong@'));
  const refused = await checkProxy(wrong, settings);
  expect(refused).toMatchObject({ state: 'failed' });
  const sentence = describeProxyCheck(refused, world.smtpPort);
  expect(sentence).toContain(proxy.label);
  expect(sentence).toMatch(/refused the user name and password/);
  expect(sentence).not.toContain('wrong');

  const gone = await startSocks5Server({ egress: '127.0.0.64' });
  await gone.kill();
  const unreachable = await checkProxy(parseProxyUrl(gone.url), settings);
  expect(describeProxyCheck(unreachable, world.smtpPort)).toMatch(
    new RegExp(`^Proxy ${gone.label.replace(/[/.]/g, '\\$&')}: could not be reached \\(ECONNREFUSED\\)`),
  );

  const works = await checkProxy(parseProxyUrl(proxy.url), settings);
  expect(describeProxyCheck(works, world.smtpPort)).toBe(
    `Proxy ${proxy.label}: works; it answers and took its user name and password, and mx.alpha.test ` +
      `answered on port ${world.smtpPort} through it.`,
  );
});
