// Per-key limits with the spec's defaults. The service's clock is pinned mid-window, so a test
// never straddles a window boundary.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { VerificationService } from '../../../../electron/core/service/verification-service.ts';
import { apiClient, startTestService } from '../../../support/service-harness.ts';

let service: VerificationService;
let clock = Date.UTC(2026, 10, 21, 12, 0, 10);

beforeAll(async () => {
  service = await startTestService({ now: () => clock });
});
afterAll(() => service.close());

const batchCount = async () => ((await service.db.get('SELECT COUNT(*) AS n FROM batches')) as { n: number }).n;

describe('rate limits', () => {
  it('gives the 11th batch in a minute a 429 with Retry-After, and creates no batch for it', async () => {
    const { key } = await service.dashboard.createKey('sandbox', 'batches');
    const api = apiClient(service, key);
    for (let i = 1; i <= 10; i += 1) {
      const response = await api('POST', '/batches', { name: `b${i}`, emails: [`valid${i}@example.com`] });
      expect(response.status).toBe(201);
      expect(response.headers.get('x-ratelimit-remaining')).toBe(String(10 - i));
    }
    const before = await batchCount();
    const refused = await api('POST', '/batches', { name: 'b11', emails: ['valid11@example.com'] });
    expect(refused.status).toBe(429);
    expect(refused.body.error).toMatchObject({ type: 'rate_limit_error', code: 'rate_limited' });
    expect(refused.headers.get('retry-after')).toBe('50');
    expect(refused.headers.get('x-ratelimit-limit')).toBe('10');
    expect(refused.headers.get('x-ratelimit-remaining')).toBe('0');
    expect(refused.headers.get('x-ratelimit-reset')).toBe(String(Date.UTC(2026, 10, 21, 12, 1, 0) / 1000));
    expect(await batchCount()).toBe(before);

    clock += 50_000; // the next minute
    expect((await api('POST', '/batches', { name: 'b12', emails: ['valid12@example.com'] })).status).toBe(201);
  });

  it('shares one budget between concurrent callers on a key, and keeps keys apart', async () => {
    const { key } = await service.dashboard.createKey('sandbox', 'shared');
    const other = (await service.dashboard.createKey('sandbox', 'other')).key;
    const batch = await apiClient(service, key)('POST', '/batches', { emails: ['valid@example.com'] });
    const statusOf = (k: string) => apiClient(service, k)('GET', `/batches/${batch.body.id}`);
    const results = await Promise.all(Array.from({ length: 70 }, () => statusOf(key)));
    expect(results.filter((response) => response.status === 200)).toHaveLength(60);
    expect(results.filter((response) => response.status === 429)).toHaveLength(10);
    expect((await statusOf(other)).status).toBe(200);
  });

  it('holds verify to 100 a second and uploads to 5 a minute', async () => {
    const { key } = await service.dashboard.createKey('sandbox', 'verify');
    const api = apiClient(service, key);
    const verifies = await Promise.all(
      Array.from({ length: 105 }, (_, i) => api('POST', '/verify', { email: `valid${i}@example.com` })),
    );
    expect(verifies.filter((response) => response.status === 429)).toHaveLength(5);
    const uploads = [];
    for (let i = 0; i < 6; i += 1)
      uploads.push(await api('POST', '/files?name=f', 'email\nvalid@example.com\n', { 'Content-Type': 'text/csv' }));
    expect(uploads.map((response) => response.status)).toEqual([201, 201, 201, 201, 201, 429]);
  });

  it('can be configured per key', async () => {
    const { key, record } = await service.dashboard.createKey('sandbox', 'tight');
    await service.dashboard.setKeyRateLimits(record.id, { other: { limit: 2, windowSeconds: 60 } });
    const api = apiClient(service, key);
    const statuses = [];
    for (let i = 0; i < 3; i += 1) statuses.push((await api('GET', '/account')).status);
    expect(statuses).toEqual([200, 200, 429]);
  });
});
