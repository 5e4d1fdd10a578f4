// Signed webhook delivery, checked with an HMAC computed here, independently of the service's code.
import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { VerificationService } from '../../../../electron/core/service/verification-service.ts';
import { apiClient, startTestService, waitFor } from '../../../support/service-harness.ts';
import { startReceiver } from '../../../support/webhook-receiver.ts';

let service: VerificationService;

beforeAll(async () => {
  // The receivers listen on loopback: allowed here, as `--allow-private-webhooks` does (webhook-addresses.test.ts holds the rule).
  service = await startTestService({
    webhookRetryScheduleMs: [100, 200, 300],
    deliveryTickMs: 20,
    allowPrivateWebhooks: true,
  });
});
afterAll(() => service.close());

function expectSigned(secret: string, signature: string | undefined, body: Buffer) {
  const match = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(signature ?? '');
  expect(match).not.toBeNull();
  const [, t, digest] = match!;
  expect(Math.abs(Number(t) - Date.now() / 1000)).toBeLessThan(10);
  const expected = createHmac('sha256', secret)
    .update(Buffer.concat([Buffer.from(`${t}.`), body]))
    .digest('hex');
  expect(digest).toBe(expected);
}

describe('webhooks', () => {
  it('delivers a signed batch.completed, retrying with the same event until a 2xx', async () => {
    const receiver = await startReceiver((attempt) => (attempt < 3 ? 500 : 204));
    const endpoint = await service.dashboard.createWebhookEndpoint(receiver.url);
    expect(endpoint.secret).toMatch(/^whsec_/);
    expect(JSON.stringify(await service.dashboard.listWebhookEndpoints())).not.toContain(endpoint.secret);
    try {
      const api = apiClient(service, (await service.dashboard.createKey('sandbox', 'hooks')).key);
      const created = await api('POST', '/batches', {
        name: 'newsletter',
        emails: ['valid1@example.com', 'invalid1@example.com'],
      });
      await waitFor(() => receiver.received.length >= 3, 10_000);
      const bodies = receiver.received.map((delivery) => delivery.body.toString('utf8'));
      expect(new Set(bodies).size).toBe(1);
      const event = JSON.parse(bodies[0]!);
      expect(event).toMatchObject({
        id: expect.stringMatching(/^evt_/),
        type: 'batch.completed',
        created_at: expect.stringMatching(/Z$/),
        data: {
          batch_id: created.body.id,
          name: 'newsletter',
          summary: { valid: 1, invalid: 1, catch_all: 0, unknown: 0, duplicates: 0, role: 0, disposable: 0, billed: 0 },
          results_url: expect.stringContaining(`/batches/${created.body.id}/results`),
        },
      });
      for (const delivery of receiver.received) expectSigned(endpoint.secret, delivery.signature, delivery.body);
      // Backoff: the waits follow the configured schedule.
      expect(receiver.received[1]!.at - receiver.received[0]!.at).toBeGreaterThanOrEqual(90);
      expect(receiver.received[2]!.at - receiver.received[1]!.at).toBeGreaterThanOrEqual(190);
      await waitFor(
        async () =>
          (await service.dashboard.listDeliveries()).find((d) => d.eventId === event.id)?.status === 'delivered',
      );
      expect((await service.dashboard.listDeliveries()).find((d) => d.eventId === event.id)).toMatchObject({
        attempts: 3,
        lastStatus: 204,
      });
      await new Promise((resolve) => setTimeout(resolve, 400));
      expect(receiver.received).toHaveLength(3);
    } finally {
      await service.dashboard.deleteWebhookEndpoint(endpoint.id);
      await receiver.close();
    }
  });

  it('marks a delivery failed when retries run out, and replays it by hand', async () => {
    let healthy = false;
    const receiver = await startReceiver(() => (healthy ? 200 : 503));
    const endpoint = await service.dashboard.createWebhookEndpoint(receiver.url);
    try {
      await service.dashboard.setLowBalanceThreshold(5);
      await service.dashboard.topUp(5);
      // 100 free checks, then one paid: the balance falls from 5 to 4, below the threshold.
      const api = apiClient(service, (await service.dashboard.createKey('live', 'spender')).key);
      const spend = await api('POST', '/batches', {
        emails: Array.from({ length: 101 }, (_, i) => `valid${i}@spend.example`),
      });
      expect(spend.status).toBe(201);
      const failed = await waitFor(
        async () =>
          (await service.dashboard.listDeliveries()).find(
            (d) => d.eventType === 'credits.low' && d.status === 'failed',
          ),
        10_000,
      );
      expect(failed.attempts).toBe(4);
      expect(failed.lastError).toBe('HTTP 503');
      healthy = true;
      await service.dashboard.replayDelivery(failed.id);
      await waitFor(
        async () => (await service.dashboard.listDeliveries()).find((d) => d.id === failed.id)?.status === 'delivered',
      );
      const ids = receiver.received.map((delivery) => JSON.parse(delivery.body.toString()).id);
      expect(new Set(ids).size).toBe(1);
      expect(receiver.received).toHaveLength(5);
      expect(JSON.parse(receiver.received[4]!.body.toString())).toMatchObject({
        type: 'credits.low',
        data: { balance: expect.any(Number) },
      });
      expectSigned(endpoint.secret, receiver.received[4]!.signature, receiver.received[4]!.body);
    } finally {
      await service.dashboard.deleteWebhookEndpoint(endpoint.id);
      await receiver.close();
    }
  });
});
