// No log line, error message, stack or serialised error carries a full key.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createRateBudget } from '../../../../electron/core/client/rate-budget.ts';
import { createServiceClient } from '../../../../electron/core/client/service-client.ts';
import type { VerificationService } from '../../../../electron/core/service/verification-service.ts';
import { fakeClock, startFaultProxy } from '../../../support/fault-proxy.ts';
import { startTestService } from '../../../support/service-harness.ts';

let service: VerificationService;
beforeAll(async () => {
  service = await startTestService();
});
afterAll(() => service.close());

function everythingSaid(error: unknown): string {
  const e = error as Error & { cause?: unknown };
  return [String(e), e.message, e.stack, JSON.stringify(e), e.cause ? String(e.cause) : ''].join('\n');
}

describe('keys stay secret', () => {
  it('never shows a full key in errors or console output, only the masked form', async () => {
    const logged: string[] = [];
    const spies = (['log', 'error', 'warn', 'info', 'debug'] as const).map((level) =>
      vi.spyOn(console, level).mockImplementation((...args: unknown[]) => void logged.push(args.map(String).join(' '))),
    );
    const revoked = await service.dashboard.createKey('live', 'soon revoked');
    await service.dashboard.revokeKey(revoked.record.id);
    const echoing = 'svc_test_echoedbackbyaservice123456';
    const proxy = await startFaultProxy(service.baseUrl, () => ({
      kind: 'respond',
      status: 400,
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ error: { type: 'invalid_request_error', code: 'x', message: `bad key ${echoing}` } }),
    }));
    const keys = [revoked.key, 'svc_live_neverissuedbutsecret0000000', echoing];
    const errors: unknown[] = [];
    try {
      for (const attempt of [
        () => createServiceClient({ baseUrl: service.baseUrl, apiKey: revoked.key }).getAccount(),
        () =>
          createServiceClient({ baseUrl: service.baseUrl, apiKey: keys[1]! }).createBatch({
            emails: ['a@example.com'],
          }),
        () => createServiceClient({ baseUrl: proxy.baseUrl, apiKey: echoing, budget: createRateBudget() }).getAccount(),
        () =>
          createServiceClient({
            baseUrl: 'http://127.0.0.1:1/v1',
            apiKey: keys[1]!,
            clock: fakeClock(),
            maxTransientRetries: 1,
            budget: createRateBudget(),
          }).getAccount(),
        async () => createServiceClient({ baseUrl: service.baseUrl, apiKey: 'svcX_live_looks_like_a_key_1234' }),
      ]) {
        await attempt().catch((error: unknown) => errors.push(error));
      }
    } finally {
      for (const spy of spies) spy.mockRestore();
      await proxy.close();
    }
    expect(errors).toHaveLength(5);
    const said = [...errors.map(everythingSaid), ...logged].join('\n');
    for (const key of [...keys, 'svcX_live_looks_like_a_key_1234']) expect(said).not.toContain(key);
    expect(said).toContain(`svc_live_…${revoked.key.slice(-4)}`);
  });
});
