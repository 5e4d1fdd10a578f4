// The app against a hosted service (a second Sift service on loopback), through the real dispatch:
// test the connection (a message for each failure), save it, clean a list there, see the account; the
// key never comes back in any answer or event, and a restart keeps the settings and the key working.
import { mkdtemp, readFile, readdir, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AccountView, JobOverview, SettingsView } from '../../../../electron/common/contract.ts';
import { createAppRuntime } from '../../../../electron/core/app/app-runtime.ts';
import { appCaller } from '../../../support/app-call.ts';
import type { VerificationService } from '../../../../electron/core/service/verification-service.ts';
import { startTestService, waitFor } from '../../../support/service-harness.ts';

let hosted: VerificationService;
let liveKey: string;

beforeAll(async () => {
  hosted = await startTestService({ probesPerSecondPerHost: 10_000 });
  liveKey = (await hosted.dashboard.createKey('live', 'team')).key;
  await hosted.dashboard.topUp(1000);
});
afterAll(() => hosted.close());

/** Every answer and event the renderer got, to be searched for the key. */
const seen: string[] = [];

const call = appCaller('web', seen);

async function startApp(dataDir: string) {
  const runtime = await createAppRuntime({ dataDir, appVersion: '1.0.0' });
  runtime.events.subscribe((name, payload) => seen.push(JSON.stringify({ name, payload })));
  return runtime;
}

describe('settings: a hosted service', () => {
  it('tests, saves and uses a hosted service without the key ever coming back', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'sift-settings-'));
    let runtime = await startApp(dataDir);
    try {
      expect(await call<SettingsView>(runtime, 'settings:get', {})).toMatchObject({
        service: 'own',
        ownMode: 'sandbox',
        keyProtection: 'file-0600',
      });
      const test = (request: { baseUrl: string; apiKey?: string }) => call(runtime, 'settings:testConnection', request);
      expect(await test({ baseUrl: hosted.baseUrl, apiKey: 'svc_live_wrongKey00000000000000000' })).toMatchObject({
        ok: false,
        problem: 'key_refused',
      });
      expect(await test({ baseUrl: 'http://127.0.0.1:9', apiKey: liveKey })).toMatchObject({
        ok: false,
        problem: 'unreachable',
      });
      expect(await test({ baseUrl: 'http://verify.example.com', apiKey: liveKey })).toMatchObject({
        ok: false,
        problem: 'insecure',
      });
      // Something that answers, but not as a verification service does.
      const stranger = createServer((_request, response) =>
        response.writeHead(404, { 'Content-Type': 'text/html' }).end('<h1>Not here</h1>'),
      );
      await new Promise<void>((resolve) => stranger.listen(0, '127.0.0.1', resolve));
      try {
        const port = (stranger.address() as AddressInfo).port;
        expect(await test({ baseUrl: `http://127.0.0.1:${port}`, apiKey: liveKey })).toMatchObject({
          ok: false,
          problem: 'not_compatible',
        });
      } finally {
        stranger.close();
      }
      // The service's host without /v1 works as well as the spec's {base_url}.
      expect(await test({ baseUrl: hosted.baseUrl.replace(/\/v1$/, ''), apiKey: liveKey })).toMatchObject({
        ok: true,
        mode: 'live',
        balance: 1000,
        freeRemaining: 100,
      });

      const saved = await call<SettingsView>(runtime, 'settings:saveHosted', {
        baseUrl: hosted.baseUrl,
        label: 'Team service',
        apiKey: liveKey,
      });
      expect(saved).toMatchObject({
        service: 'hosted',
        hosted: {
          label: 'Team service',
          mode: 'live',
          keyAvailable: true,
          maskedKey: `svc_live_…${liveKey.slice(-4)}`,
        },
      });
      expect(await call<AccountView>(runtime, 'account:get', {})).toMatchObject({
        service: 'hosted',
        mode: 'live',
        balance: 1000,
        problem: null,
      });

      // A list cleaned now goes to the hosted service and is billed there.
      const list = join(dataDir, 'team.csv');
      await writeFile(list, 'email\nvalid.a@example.com\nvalid.b@example.com\ninvalid.c@example.com\n');
      const { uploadId } = await runtime.uploads.save((await import('node:fs')).createReadStream(list), 'team.csv');
      const created = await call<JobOverview>(runtime, 'jobs:create', { file: { kind: 'upload', uploadId } });
      expect(created.cost).toMatchObject({ mode: 'live', checks: 3, covered: true });
      await call(runtime, 'jobs:start', { jobId: created.jobId });
      await waitFor(
        async () => (await call<JobOverview>(runtime, 'jobs:get', { jobId: created.jobId })).phase === 'done',
        15_000,
      );
      expect((await hosted.dashboard.account()).freeRemaining).toBe(97);
      await runtime.close();

      // A restart keeps the settings, and the key (a 0600 file in the web host) still works.
      runtime = await startApp(dataDir);
      expect(await call<SettingsView>(runtime, 'settings:get', {})).toMatchObject({
        service: 'hosted',
        hosted: { keyAvailable: true },
      });
      expect(await call(runtime, 'settings:testConnection', { baseUrl: hosted.baseUrl })).toMatchObject({ ok: true });
      const keys = await readdir(join(dataDir, 'keys'));
      expect(keys).toHaveLength(1);
      expect(await readFile(join(dataDir, 'keys', keys[0]!), 'utf8')).toBe(liveKey);

      // Forgetting it removes the key from this computer and goes back to Sift's own service.
      expect(await call<SettingsView>(runtime, 'settings:forgetHosted', {})).toMatchObject({
        service: 'own',
        hosted: null,
      });
      expect(await readdir(join(dataDir, 'keys'))).toEqual([]);
      expect(JSON.stringify(await readFile(join(dataDir, 'settings.json'), 'utf8'))).not.toContain(liveKey);
    } finally {
      await runtime.close();
    }
    expect(seen.length).toBeGreaterThan(10);
    expect(seen.filter((text) => text.includes(liveKey))).toEqual([]);
  });
});
