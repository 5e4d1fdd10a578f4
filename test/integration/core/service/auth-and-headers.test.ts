// Authentication and the headers every answer carries, over real HTTP.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { VerificationService } from '../../../../electron/core/service/verification-service.ts';
import { apiClient, startTestService, testDatabase, type ApiResponse } from '../../../support/service-harness.ts';

let service: VerificationService;
let keyA: string;
let keyB: string;

beforeAll(async () => {
  service = await startTestService();
  keyA = (await service.dashboard.createKey('sandbox', 'A')).key;
  keyB = (await service.dashboard.createKey('sandbox', 'B')).key;
});
afterAll(() => service.close());

const batchCount = async () => ((await service.db.get('SELECT COUNT(*) AS n FROM batches')) as { n: number }).n;

function expectRateHeaders(response: ApiResponse) {
  expect(response.headers.get('x-ratelimit-limit')).toMatch(/^\d+$/);
  expect(response.headers.get('x-ratelimit-remaining')).toMatch(/^\d+$/);
  expect(Number(response.headers.get('x-ratelimit-reset'))).toBeGreaterThan(Date.now() / 1000 - 1);
  expect(response.headers.get('service-version')).toBe('2026-11-01');
}

describe('the store', () => {
  it('is the database this run of the suite names (SQLite, or PostgreSQL on its run)', () => {
    expect(service.db.dialect.name).toBe(testDatabase);
  });
});

describe('authentication', () => {
  it('answers 401 missing_api_key with no key, and nothing reaches the queue', async () => {
    const response = await apiClient(service)('POST', '/batches', { name: 'x', emails: ['a@example.com'] });
    expect(response.status).toBe(401);
    expect(response.body).toEqual({
      error: { type: 'authentication_error', code: 'missing_api_key', message: expect.any(String) },
    });
    expect(await batchCount()).toBe(0);
  });

  it('answers 401 invalid_api_key for a key that matches nothing', async () => {
    for (const key of ['svc_test_nope', 'svc_live_0000000000000000000000000000', 'sk_live_abc']) {
      const response = await apiClient(service, key)('GET', '/account');
      expect(response.status).toBe(401);
      expect(response.body.error).toMatchObject({ type: 'authentication_error', code: 'invalid_api_key' });
    }
  });

  it('never accepts a key in the query string', async () => {
    const anonymous = await apiClient(service)('GET', `/account?api_key=${keyA}`);
    expect(anonymous.status).toBe(401);
    expect(anonymous.body.error.code).toBe('missing_api_key');
    const both = await apiClient(service, keyB)('GET', `/account?key=${keyA}`);
    expect(both.status).toBe(400);
    expect(both.body.error.code).toBe('api_key_in_query');
    expect(both.text).not.toContain(keyA);
  });

  it('lets two active keys work at once, and refuses a revoked one', async () => {
    expect((await apiClient(service, keyA)('GET', '/account')).status).toBe(200);
    expect((await apiClient(service, keyB)('GET', '/account')).status).toBe(200);
    const { key, record } = await service.dashboard.createKey('sandbox', 'C');
    expect((await apiClient(service, key)('GET', '/account')).status).toBe(200);
    await service.dashboard.revokeKey(record.id);
    const revoked = await apiClient(service, key)('GET', '/account');
    expect(revoked.status).toBe(401);
    expect(revoked.body.error.code).toBe('invalid_api_key');
    expect((await apiClient(service, keyA)('GET', '/account')).status).toBe(200);
  });

  it('stores keys hashed and shows them masked; records last use', async () => {
    const rows = (await service.db.all('SELECT * FROM api_keys')) as Record<string, unknown>[];
    for (const row of rows) expect(JSON.stringify(row)).not.toContain(keyA.slice(9));
    const listed = (await service.dashboard.listKeys()).find((key) => key.label === 'A')!;
    expect(listed.masked).toBe(`svc_test_…${keyA.slice(-4)}`);
    expect(listed.lastUsedAt).toBeGreaterThan(0);
  });
});

describe('headers on every response', () => {
  it('carries the rate-limit and version headers on success and on every kind of error', async () => {
    const api = apiClient(service, keyA);
    const responses = [
      await api('GET', '/account'),
      await api('POST', '/verify', { email: 'valid@example.com' }),
      await api('POST', '/verify', '{not json', { 'Content-Type': 'application/json' }),
      await api('GET', '/batches/bat_missing'),
      await api('GET', '/nope'),
      await api('DELETE', '/account'),
      await apiClient(service)('GET', '/account'),
      await apiClient(service, 'svc_test_wrong')('GET', '/account'),
    ];
    expect(responses.map((response) => response.status)).toEqual([200, 200, 400, 404, 404, 405, 401, 401]);
    for (const response of responses) expectRateHeaders(response);
    for (const response of responses.slice(2))
      expect(response.body.error).toMatchObject({
        type: expect.any(String),
        code: expect.any(String),
        message: expect.any(String),
      });
  });

  it('echoes a pinned Service-Version and refuses a malformed one', async () => {
    const api = apiClient(service, keyA);
    expect(
      (await api('GET', '/account', undefined, { 'Service-Version': '2026-01-15' })).headers.get('service-version'),
    ).toBe('2026-01-15');
    const bad = await api('GET', '/account', undefined, { 'Service-Version': 'latest' });
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe('invalid_service_version');
  });

  it('answers /account with the mode, balance and masked key', async () => {
    const response = await apiClient(service, keyA)('GET', '/account');
    expect(response.body).toEqual({
      mode: 'sandbox',
      balance: 0,
      free_remaining: 100,
      key: { label: 'A', prefix: `svc_test_…${keyA.slice(-4)}` },
      // Sift's own extra: whether its live checks can reach mail servers (nothing has been tried yet).
      port_25: 'unchecked',
      // Sift's own extra: whether mail servers refuse its sending address (none has yet).
      sender: { state: 'not_refused' },
      // Sift's own extra: the shortcuts it offers beside POST /batches and the cursor loop.
      features: ['files', 'results_csv', 'outcomes'],
    });
  });
});
