// The app's side of a refused sender: once mail servers of three unrelated domains refuse its own
// service's sending address, the account the badge and the banner read says so, with the newest reply and
// the blocklist's removal page; one refusing domain is only that domain's policy.
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { AccountView, SingleCheck } from '../../../../electron/common/contract.ts';
import { createAppRuntime } from '../../../../electron/core/app/app-runtime.ts';
import { appCaller } from '../../../support/app-call.ts';
import { startMailWorld, type MailWorld } from '../../../support/mail-world.ts';

const listed = { code: 554, text: '5.7.1 Service unavailable; Client host [127.0.0.1] blocked using zen.spamhaus.org' };
const sites = ['one', 'two', 'three'];
let world: MailWorld;
beforeAll(async () => {
  world = await startMailWorld({
    hosts: Object.fromEntries(
      sites.map((site, i) => [
        `mx.${site}.test`,
        { ip: `127.0.0.${81 + i}`, others: 'accept' as const, refuseClient: listed },
      ]),
    ),
    domains: Object.fromEntries(sites.map((site) => [`${site}.test`, { mx: [`mx.${site}.test`] }])),
  });
});
afterAll(() => world?.close());

const call = appCaller('web', []);

it('tells the app when servers of three unrelated domains refuse its sending address', async () => {
  const dataDir = await mkdtemp(join(tmpdir(), 'sift-refused-'));
  const smtp = { port: world.smtpPort, resolvers: [world.resolver], timeoutMs: 2000 };
  const runtime = await createAppRuntime({ dataDir, appVersion: '1.0.0', service: { smtp } });
  try {
    await call(runtime, 'settings:useOwn', { mode: 'live' });
    const first = await call<SingleCheck>(runtime, 'checks:verify', { email: 'ann@one.test' });
    expect(first).toMatchObject({ result: 'unknown', reason: 'sender_blocklisted', billed: false });
    expect((await call<AccountView>(runtime, 'account:get', {})).senderRefused).toBeUndefined();

    await call(runtime, 'checks:verify', { email: 'ann@two.test' });
    await call(runtime, 'checks:verify', { email: 'ann@three.test' });
    const account = await call<AccountView>(runtime, 'account:get', {});
    expect(account).toMatchObject({
      mode: 'live',
      senderRefused: {
        refusedBy: 3,
        wayOut: 'direct',
        blocklist: 'Spamhaus',
        removalUrl: 'https://check.spamhaus.org/',
        reply: expect.stringMatching(/^554 5\.7\.1 .*zen\.spamhaus\.org/),
      },
    });
  } finally {
    await runtime.close();
  }
});
