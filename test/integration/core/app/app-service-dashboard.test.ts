// The app's screen for Sift's own service, through the real dispatch: keys made (the secret once) and
// revoked (the service then refuses them), the app's own key kept, a webhook endpoint whose delivery
// failed replayed by hand, and the low-balance threshold.
import { createReadStream } from 'node:fs';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type {
  JobOverview,
  ListBreakdown,
  ServiceOverview,
  SettingsView,
  SingleCheck,
} from '../../../../electron/common/contract.ts';
import { createAppRuntime } from '../../../../electron/core/app/app-runtime.ts';
import { appCaller } from '../../../support/app-call.ts';
import { createServiceClient } from '../../../../electron/core/client/service-client.ts';
import { waitFor } from '../../../support/service-harness.ts';
import { startReceiver } from '../../../support/webhook-receiver.ts';
import { startMailWorld } from '../../../support/mail-world.ts';

const web = { transport: 'web' as const };

const call = appCaller('web');

describe("Sift's own service in the app", () => {
  it('makes and revokes keys, replays a failed delivery and sets the threshold', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'sift-dashboard-'));
    // Deliveries fail for good at once, so one can be replayed by hand.
    const runtime = await createAppRuntime({
      dataDir,
      appVersion: '1.0.0',
      // The receiver is on loopback: allowed, as --allow-private-webhooks does for a service of one's own.
      service: { webhookRetryScheduleMs: [], deliveryTickMs: 20, allowPrivateWebhooks: true },
    });
    let attempts = 0;
    const receiver = await startReceiver(() => (++attempts === 1 ? 500 : 200));
    try {
      const start = await call<ServiceOverview>(runtime, 'service:overview', {});
      expect(start.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/);
      const appKey = start.keys.find((key) => key.usedByApp)!;
      expect(appKey).toMatchObject({ mode: 'sandbox', state: 'active' });
      expect((await runtime.dispatch('service:revokeKey', { keyId: appKey.id }, web)).ok).toBe(false);

      const made = await call<{ key: string; overview: ServiceOverview }>(runtime, 'service:createKey', {
        mode: 'live',
        label: 'Reporting tool',
      });
      expect(made.key).toMatch(/^svc_live_/);
      const listed = made.overview.keys.find((key) => key.label === 'Reporting tool')!;
      expect(listed).toMatchObject({ mode: 'live', state: 'active', masked: `svc_live_…${made.key.slice(-4)}` });
      expect(JSON.stringify(made.overview)).not.toContain(made.key);
      const tool = createServiceClient({ baseUrl: start.baseUrl, apiKey: made.key });
      expect(await tool.getAccount()).toMatchObject({ mode: 'live' });
      const revoked = await call<ServiceOverview>(runtime, 'service:revokeKey', { keyId: listed.id });
      expect(revoked.keys.find((key) => key.id === listed.id)!.state).toBe('revoked');
      await expect(tool.getAccount()).rejects.toMatchObject({ kind: 'authentication' });

      const hook = await call<{ secret: string; overview: ServiceOverview }>(runtime, 'service:addWebhook', {
        url: receiver.url,
      });
      expect(hook.secret).toMatch(/^whsec_/);
      expect(hook.overview.endpoints).toEqual([expect.objectContaining({ url: receiver.url })]);
      // A cleaned list's batch completes: its event goes to the endpoint, which fails the first time.
      const list = join(dataDir, 'hooks.csv');
      await writeFile(list, 'email\nvalid.h@example.com\n');
      const { uploadId } = await runtime.uploads.save(createReadStream(list), 'hooks.csv');
      const job = await call<JobOverview>(runtime, 'jobs:create', { file: { kind: 'upload', uploadId } });
      await call(runtime, 'jobs:start', { jobId: job.jobId });
      const failed = await waitFor(async () => {
        const overview = await call<ServiceOverview>(runtime, 'service:overview', {});
        return overview.deliveries.find((delivery) => delivery.status === 'failed');
      }, 20_000);
      expect(failed).toMatchObject({ eventType: 'batch.completed', attempts: 1, lastStatus: 500 });
      await call(runtime, 'service:replayDelivery', { deliveryId: failed.id });
      await waitFor(async () => {
        const overview = await call<ServiceOverview>(runtime, 'service:overview', {});
        return overview.deliveries.find((delivery) => delivery.id === failed.id)?.status === 'delivered';
      }, 10_000);
      expect(receiver.received).toHaveLength(2);

      const removed = await call<ServiceOverview>(runtime, 'service:removeWebhook', {
        endpointId: hook.overview.endpoints[0]!.id,
      });
      expect(removed.endpoints).toEqual([]);
      expect(
        (await call<ServiceOverview>(runtime, 'service:setThreshold', { credits: 500 })).account.lowThreshold,
      ).toBe(500);
      expect((await runtime.dispatch('service:replayDelivery', { deliveryId: 'del_nothing' }, web)).ok).toBe(false);
      // Under the threshold, the badge's account says the credits are low.
      await call(runtime, 'settings:useOwn', { mode: 'live' });
      expect(await call(runtime, 'account:get', {})).toMatchObject({ mode: 'live', balance: 0, low: true });
    } finally {
      await receiver.close();
      await runtime.close();
    }
  });

  it('listens on a fixed port for other tools from the next start, when asked', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'sift-sharing-'));
    const port = 20_000 + Math.floor(Math.random() * 20_000);
    const first = await createAppRuntime({ dataDir, appVersion: '1.0.0' });
    try {
      expect((await call<ServiceOverview>(first, 'service:overview', {})).baseUrl).not.toContain(`:${port}/`);
      await call(first, 'settings:setSharing', { enabled: true, port });
    } finally {
      await first.close();
    }
    const second = await createAppRuntime({ dataDir, appVersion: '1.0.0' });
    try {
      expect((await call<ServiceOverview>(second, 'service:overview', {})).baseUrl).toBe(`http://127.0.0.1:${port}/v1`);
      expect((await second.dispatch('settings:setSharing', { enabled: true, port: 80 }, web)).ok).toBe(false);
    } finally {
      await second.close();
    }
  });

  it('checks live addresses the way its saved live-check settings say, from the next start', async () => {
    const world = await startMailWorld({
      hosts: {
        'mx.shop.test': { ip: '127.0.0.2', mailboxes: { ann: 'accept' } },
        'aspmx.l.google.com': { ip: '127.0.0.3', mailboxes: { bo: 'accept' } },
      },
      // corp.test's mail is on Google: only its MX hosts say so.
      domains: { 'shop.test': { mx: ['mx.shop.test'] }, 'corp.test': { mx: ['aspmx.l.google.com'] } },
    });
    const dataDir = await mkdtemp(join(tmpdir(), 'sift-engine-settings-'));
    // The mail servers' port is not a setting a person changes (it is 25); tests give theirs.
    const deps = { dataDir, appVersion: '1.0.0', service: { smtp: { port: world.smtpPort } } };
    const first = await createAppRuntime(deps);
    try {
      const engine = {
        helo: 'desk.sift.test',
        mailFrom: 'me@sift.test',
        resolvers: [world.resolver],
        perHostRate: 5,
        timeoutSeconds: 3,
        greylistRetryMinutes: [1, 2],
      };
      expect(await call<SettingsView>(first, 'settings:setEngine', engine)).toMatchObject({ engine });
      for (const bad of [
        { resolvers: ['dns.example.com'] },
        { perHostRate: 0 },
        { mailFrom: 'nobody' },
        { port: 25 },
      ]) {
        expect((await first.dispatch('settings:setEngine', bad, web)).ok, JSON.stringify(bad)).toBe(false);
      }
      expect((await call<SettingsView>(first, 'settings:get', {})).engine).toEqual(engine);
    } finally {
      await first.close();
    }
    const second = await createAppRuntime(deps);
    try {
      await call(second, 'settings:useOwn', { mode: 'live' });
      const check = await call<SingleCheck>(second, 'checks:verify', { email: 'ann@shop.test' });
      expect(check).toMatchObject({ result: 'valid', billed: true });
      const commands = world.logs['mx.shop.test']!.commands;
      expect(commands).toContain('EHLO desk.sift.test');
      expect(commands).toContain('MAIL FROM:<me@sift.test>');

      // A list's breakdown counts a company domain on Google's mail as Google, as the service found.
      const list = join(dataDir, 'live.csv');
      await writeFile(list, 'email\nann@shop.test\nbo@corp.test\n');
      const { uploadId } = await second.uploads.save(createReadStream(list), 'live.csv');
      const job = await call<JobOverview>(second, 'jobs:create', { file: { kind: 'upload', uploadId } });
      await call(second, 'jobs:start', { jobId: job.jobId });
      await waitFor(async () => (await call<JobOverview>(second, 'jobs:get', { jobId: job.jobId })).phase === 'done');
      const breakdown = await call<ListBreakdown>(second, 'jobs:breakdown', { jobId: job.jobId });
      expect(breakdown.providers).toEqual([
        { provider: 'Google', count: 1 },
        { provider: 'Other', count: 1 },
      ]);
    } finally {
      await second.close();
      await world.close();
    }
  });
});
