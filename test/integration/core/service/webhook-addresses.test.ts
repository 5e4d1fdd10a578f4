// Webhooks stay outside: an endpoint inside (this computer, link-local, a private or unique-local network,
// the unspecified, multicast, documentation, benchmarking and reserved ranges of IANA's special-purpose
// registries, IPv6 forms carrying such an IPv4 address, a name resolving there) or with credentials is refused when it is
// added, and again when a delivery connects; `allowPrivateWebhooks` (--allow-private-webhooks) lets them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { VerificationService } from '../../../../electron/core/service/verification-service.ts';
import { apiClient, startTestService, waitFor } from '../../../support/service-harness.ts';
import { startReceiver } from '../../../support/webhook-receiver.ts';

const inside = [
  'http://169.254.169.254/latest/meta-data/',
  'http://127.0.0.1:8080/hooks',
  'http://10.0.0.1/hooks',
  'http://172.16.5.4/hooks',
  'http://192.168.1.1/hooks',
  'http://100.64.0.1/hooks',
  'http://[fe80::1]/hooks',
  'http://[fd12:3456::1]/hooks',
  'http://[::1]:9/hooks',
  'http://[::ffff:127.0.0.1]/hooks',
  'http://0.0.0.0:9/hooks',
  'http://[::]/hooks',
  'http://224.0.0.1/hooks',
  'http://[ff02::1]/hooks',
  'http://2130706433/hooks', // 127.0.0.1 written as one number
  'http://localhost:9/hooks', // a name that resolves to 127.0.0.1
  // IPv6 forms that carry an inside IPv4 address through a gateway, and the rest of IANA's registries.
  'http://[::127.0.0.1]/hooks', // IPv4-compatible
  'http://[::ffff:0:7f00:1]/hooks', // IPv4-translated
  'http://[64:ff9b::7f00:1]/hooks', // NAT64's well-known prefix
  'http://[2002:7f00:1::]/hooks', // 6to4
  'http://[2001:0:4136:e378:8000:63bf:80ff:fffe]/hooks', // Teredo, its client 127.0.0.1 obscured
  'http://[fec0::1]/hooks', // site-local
  'http://198.18.0.1/hooks', // benchmarking
  'http://192.0.0.8/hooks', // IETF protocol assignments
  'http://203.0.113.7/hooks', // documentation
  'http://[2001:db8::1]/hooks', // documentation
];

let service: VerificationService;

beforeAll(async () => {
  service = await startTestService({ webhookRetryScheduleMs: [], deliveryTickMs: 20 });
});
afterAll(() => service.close());

const endpointRows = async () =>
  ((await service.db.get('SELECT COUNT(*) AS n FROM webhook_endpoints')) as { n: number }).n;

describe('adding an endpoint', () => {
  it.each(inside)('refuses %s, naming the range and the flag, and stores nothing', async (url) => {
    const before = await endpointRows();
    await expect(service.dashboard.createWebhookEndpoint(url)).rejects.toThrow(
      /is (this computer|the unspecified|link-local|a private|a unique-local|multicast|a documentation|a reserved).*--allow-private-webhooks/,
    );
    expect(await endpointRows()).toBe(before);
  });

  it('refuses a URL with a user or password, and never repeats the password', async () => {
    const refused = service.dashboard.createWebhookEndpoint('https://hook:s3cr%2Fet@hooks.example.com/sift');
    await expect(refused).rejects.toThrow(/may not hold a user or password/);
    await expect(refused).rejects.not.toThrow(/s3cr/);
  });

  it('takes a public name, even one that does not resolve from here yet', async () => {
    const endpoint = await service.dashboard.createWebhookEndpoint('https://hooks.example.com/sift');
    expect(endpoint.url).toBe('https://hooks.example.com/sift');
    await service.dashboard.deleteWebhookEndpoint(endpoint.id);
  });
});

describe('delivering', () => {
  it('refuses at connection an endpoint stored inside (by an older version, or a name that now resolves inward), and sends nothing', async () => {
    const receiver = await startReceiver(() => 204);
    const { port } = new URL(receiver.url);
    // Stored as an older version, or a service run with the flag, would have stored them.
    const urls = [receiver.url, `http://localhost:${port}/hooks`];
    for (const [i, url] of urls.entries()) {
      await service.db.run('INSERT INTO webhook_endpoints (id, url, secret, created_at) VALUES (?, ?, ?, ?)', [
        `we_inside${i}`,
        url,
        'whsec_test',
        Date.now(),
      ]);
    }
    const listed = await service.dashboard.listWebhookEndpoints();
    expect(listed.filter((endpoint) => endpoint.inside === 'this computer (loopback)')).toHaveLength(2);
    try {
      const api = apiClient(service, (await service.dashboard.createKey('sandbox', 'inside')).key);
      await api('POST', '/batches', { name: 'inside', emails: ['valid1@example.com'] });
      const failed = await waitFor(async () => {
        const done = (await service.dashboard.listDeliveries()).filter((d) => d.endpointId.startsWith('we_inside'));
        return done.length === 2 && done.every((d) => d.status === 'failed') && done;
      }, 10_000);
      for (const delivery of failed) {
        expect(delivery.lastError).toMatch(/is this computer \(loopback\).*--allow-private-webhooks/);
        expect(delivery.lastStatus).toBeNull();
      }
      expect(receiver.received).toHaveLength(0);
    } finally {
      await receiver.close();
    }
  });
});

describe('with --allow-private-webhooks', () => {
  it('takes and delivers to this computer', async () => {
    const allowing = await startTestService({ deliveryTickMs: 20, allowPrivateWebhooks: true });
    const receiver = await startReceiver(() => 204);
    try {
      const endpoint = await allowing.dashboard.createWebhookEndpoint(receiver.url);
      expect(allowing.dashboard.allowsPrivateWebhooks).toBe(true);
      expect((await allowing.dashboard.listWebhookEndpoints())[0]).toMatchObject({
        id: endpoint.id,
        inside: 'this computer (loopback)',
      });
      const api = apiClient(allowing, (await allowing.dashboard.createKey('sandbox', 'allowed')).key);
      await api('POST', '/batches', { name: 'allowed', emails: ['valid1@example.com'] });
      await waitFor(() => receiver.received.length === 1, 10_000);
    } finally {
      await receiver.close();
      await allowing.close();
    }
  });
});
