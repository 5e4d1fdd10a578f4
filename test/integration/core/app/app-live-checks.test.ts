// Live checks on this computer, set up in the app: port 25 tried now (directly and through each proxy,
// each named, never with its password), proxies kept with their passwords in the vault and shown masked,
// and the running service's next conversation going out through them at once, with no restart.
import { mkdtemp, readFile, readdir, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LiveCheckTest, SettingsView, SingleCheck } from '../../../../electron/common/contract.ts';
import { createAppRuntime } from '../../../../electron/core/app/app-runtime.ts';
import { appCaller } from '../../../support/app-call.ts';
import { startMailWorld, type MailWorld } from '../../../support/mail-world.ts';
import { startSocks5Server, type Socks5Server } from '../../../support/socks5-server.ts';

const web = { transport: 'web' as const };
const egress = '127.0.0.70';
const password = 'p@ss:wörd';
let world: MailWorld;
let proxy: Socks5Server;

beforeAll(async () => {
  world = await startMailWorld({
    hosts: {
      'gmail-smtp-in.l.google.com': { ip: '127.0.0.71' },
      'mta5.am0.yahoodns.net': { ip: '127.0.0.72' },
      'mx.shop.test': { ip: '127.0.0.73', mailboxes: { ann: 'accept' }, others: 'reject' },
    },
    domains: {
      'gmail.com': { mx: ['gmail-smtp-in.l.google.com'] },
      'yahoo.com': { mx: ['mta5.am0.yahoodns.net'] },
      'outlook.com': 'nxdomain',
      'shop.test': { mx: ['mx.shop.test'] },
    },
  });
  // This computer's network blocks port 25: only the proxy's outgoing address gets through.
  world.acceptOnlyFrom([egress], { firewall: true });
  proxy = await startSocks5Server({ egress, user: 'desk', password });
});
afterAll(async () => {
  await proxy.kill();
  await world.close();
});

/** Every answer the renderer got, to be searched for the password. */
const seen: string[] = [];
const call = appCaller('web', seen);

describe('live checks on this computer', () => {
  it('tries port 25 now, keeps proxies with their passwords in the vault, and uses them at once', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'sift-live-checks-'));
    const smtp = { port: world.smtpPort, resolvers: [world.resolver], timeoutMs: 2000 };
    const runtime = await createAppRuntime({ dataDir, appVersion: '1.0.0', service: { smtp } });
    try {
      expect((await call<SettingsView>(runtime, 'settings:get', {})).checkingChosen).toBe(false);
      // The own service runs already (the badge asked for the account), in the demo.
      await call(runtime, 'account:get', {});

      const direct = await call<LiveCheckTest>(runtime, 'settings:testLiveChecks', { proxies: [] });
      expect(direct.direct).toMatchObject({ state: 'blocked' });
      expect(direct.direct.message).toContain('gmail-smtp-in.l.google.com');
      expect(direct.usable).toBe(false);

      const wrong = `socks5://desk:nope@127.0.0.1:${proxy.url.split(':').at(-1)}`;
      const refused = await call<LiveCheckTest>(runtime, 'settings:testLiveChecks', { proxies: [wrong] });
      expect(refused.proxies).toEqual([
        expect.objectContaining({ proxy: proxy.label, state: 'failed', message: expect.stringContaining(proxy.label) }),
      ]);
      expect(refused.proxies[0]!.message).toContain('refused the user name and password');
      expect(refused.usable).toBe(false);

      const typed = `socks5://desk:${encodeURIComponent(password)}@${proxy.label.slice('socks5://'.length)}`;
      const works = await call<LiveCheckTest>(runtime, 'settings:testLiveChecks', { proxies: [typed] });
      expect(works.proxies).toEqual([expect.objectContaining({ proxy: proxy.label, state: 'ok' })]);
      expect(works.usable).toBe(true);

      // Saved: the settings file and every answer hold the proxy with its password masked; the vault holds it.
      const masked = `socks5://desk:•••@${proxy.label.slice('socks5://'.length)}`;
      const view = await call<SettingsView>(runtime, 'settings:setEngine', {
        helo: 'desk.sift.test',
        proxies: [typed],
      });
      expect(view.engine.proxies).toEqual([masked]);
      await call(runtime, 'settings:useOwn', { mode: 'live' });
      expect((await call<SettingsView>(runtime, 'settings:get', {})).checkingChosen).toBe(true);
      const settingsFile = await readFile(join(dataDir, 'settings.json'), 'utf8');
      expect(settingsFile).toContain(masked);
      const keyFiles = await readdir(join(dataDir, 'keys'));
      expect(keyFiles).toHaveLength(1);
      expect(await readFile(join(dataDir, 'keys', keyFiles[0]!), 'utf8')).toBe(password);
      expect((await stat(join(dataDir, 'keys', keyFiles[0]!))).mode & 0o777).toBe(0o600);

      // The service that was already running asks through the proxy now: no restart.
      const check = await call<SingleCheck>(runtime, 'checks:verify', { email: 'ann@shop.test' });
      expect(check).toMatchObject({ result: 'valid', billed: true });
      expect(check.demo).toBeUndefined();
      expect(proxy.relayed.length).toBeGreaterThan(0);
      expect(world.logs['mx.shop.test']!.rcpts.every((rcpt) => rcpt.from === egress)).toBe(true);
      expect(world.logs['mx.shop.test']!.commands).toContain('EHLO desk.sift.test');

      // Sent back masked, the saved password is kept; a proxy no longer listed loses its password.
      const again = await call<LiveCheckTest>(runtime, 'settings:testLiveChecks', { proxies: [masked] });
      expect(again.usable).toBe(true);
      await call(runtime, 'settings:setEngine', { proxies: [masked] });
      expect(await readdir(join(dataDir, 'keys'))).toHaveLength(1);
      await call(runtime, 'settings:setEngine', {});
      expect(await readdir(join(dataDir, 'keys'))).toHaveLength(0);
      const lost = await runtime.dispatch('settings:testLiveChecks', { proxies: [masked] }, web);
      expect(lost).toMatchObject({ ok: false, error: { code: 'bad_request' } });
      expect(JSON.stringify(lost)).toContain('type it again');

      expect(seen.join('\n')).not.toContain(password);
      expect(seen.join('\n')).not.toContain(encodeURIComponent(password));
    } finally {
      await runtime.close();
    }
  });
});
