// A proxy is proven before any mail server is named: its SOCKS5 greeting and password step need no DNS,
// so a wrong password, a proxy that is not there, one that asks for a password none is set for, and one
// that lets anyone in are each named by label at start and in Settings, with DNS answering nothing. A
// batch whose only proxy refuses the password ends at once, its rows `unknown` (proxy_refused), unbilled.
import { afterAll, beforeAll, expect, it, onTestFinished } from 'vitest';
import { createSocket, type Socket as UdpSocket } from 'node:dgram';
import { testLiveChecks } from '../../../../../../electron/core/connections/live-check-test.ts';
import { checkProxy, describeProxyCheck } from '../../../../../../electron/core/service/engines/live/proxy-check.ts';
import { smtpSettings } from '../../../../../../electron/core/service/engines/live/smtp-settings.ts';
import { parseProxyUrl } from '../../../../../../electron/core/service/engines/live/socks-proxy.ts';
import { runBatch, startEngineService } from '../../../../../support/engine-harness.ts';
import { startMailWorld, type MailWorld } from '../../../../../support/mail-world.ts';
import { startSocks5Server } from '../../../../../support/socks5-server.ts';

/** A DNS "server" that never answers: every lookup times out, as on a network with no DNS. */
let silentDns: UdpSocket;
let world: MailWorld;
beforeAll(async () => {
  silentDns = createSocket('udp4');
  await new Promise<void>((resolve) => silentDns.bind(0, '127.0.0.1', resolve));
  world = await startMailWorld({
    hosts: { 'mx.alpha.test': { ip: '127.0.0.2', mailboxes: { ann: 'accept' }, others: 'reject' } },
    domains: { 'alpha.test': { mx: ['mx.alpha.test'] } },
  });
});
afterAll(async () => {
  silentDns?.close();
  await world?.close();
});

const noDns = () =>
  smtpSettings({
    resolvers: [`127.0.0.1:${silentDns.address().port}`],
    port: 25,
    timeoutMs: 1000,
    port25ProbeDomains: ['gmail.com'],
  });
const escaped = (text: string) => text.replace(/[/.]/g, '\\$&');

it('names a wrong password, an unreachable proxy and a proxy asking for a password, with no DNS', async () => {
  const guarded = await startSocks5Server({ egress: '127.0.0.70', user: 'sift', password: 'right' });
  const open = await startSocks5Server({ egress: '127.0.0.71' });
  const gone = await startSocks5Server({ egress: '127.0.0.72' });
  await gone.kill();
  onTestFinished(async () => Promise.all([guarded.kill(), open.kill()]).then(() => undefined));
  const settings = noDns();
  const said = async (url: string) => describeProxyCheck(await checkProxy(parseProxyUrl(url), settings), 25);

  const wrong = await said(guarded.url.replace(':right@', ':wrong@'));
  expect(wrong).toMatch(new RegExp(`^Proxy ${escaped(guarded.label)}: refused the user name and password`));
  expect(wrong).not.toContain('wrong');
  expect(await said(gone.url)).toMatch(new RegExp(`^Proxy ${escaped(gone.label)}: could not be reached`));
  expect(await said(guarded.url.replace('sift:right@', ''))).toMatch(
    new RegExp(`^Proxy ${escaped(guarded.label)}: asks for a user name and password, and none is set for it`),
  );
  // A password set for a proxy that takes none: it works, and the person is told anyone may use it.
  const anyone = await said(open.url.replace('socks5://', 'socks5://sift:secret@'));
  expect(anyone).toMatch(new RegExp(`^Proxy ${escaped(open.label)}: answers, but let us in without the password`));
  expect(anyone).toMatch(/port 25 through it not checked \(DNS did not answer/);
  // The right password: proven, though DNS still says nothing.
  expect(await said(guarded.url)).toBe(
    `Proxy ${guarded.label}: answers and took its user name and password; port 25 through it not checked ` +
      '(DNS did not answer for the probe domains, so port 25 through it was not tried).',
  );
  // The handshake ended politely: no connection was relayed anywhere.
  expect(guarded.relayed).toEqual([]);
});

it('says the same in Settings ▸ Test', async () => {
  const guarded = await startSocks5Server({ egress: '127.0.0.73', user: 'sift', password: 'right' });
  onTestFinished(() => guarded.kill());
  const test = await testLiveChecks({
    ...noDns(),
    proxies: [parseProxyUrl(guarded.url.replace(':right@', ':wrong@'))],
  });
  expect(test.usable).toBe(false);
  expect(test.proxies).toEqual([
    expect.objectContaining({
      proxy: guarded.label,
      state: 'failed',
      message: expect.stringMatching(/refused the user name and password/),
    }),
  ]);
});

it('ends a batch whose only proxy refuses the password: unknown (proxy_refused), nothing billed', async () => {
  const guarded = await startSocks5Server({ egress: '127.0.0.74', user: 'sift', password: 'right' });
  onTestFinished(() => guarded.kill());
  const run = await startEngineService(world, { proxies: [parseProxyUrl(guarded.url.replace(':right@', ':wrong@'))] });
  onTestFinished(() => run.service.close());
  const { status, rows } = await runBatch(run, ['ann@alpha.test', 'bob@alpha.test']);
  expect(status.status).toBe('complete');
  for (const row of rows.values()) {
    expect(row).toMatchObject({ result: 'unknown', reason: 'proxy_refused', billed: false });
    expect(row.smtp_reply).toMatch(/refused the user name and password/);
  }
  expect(world.logs['mx.alpha.test']!.rcpts).toEqual([]);
});
