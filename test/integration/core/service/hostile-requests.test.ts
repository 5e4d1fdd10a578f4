// What a client that guesses keys or sends what no client should gets: a 429 that costs the database
// nothing, and 4xx answers in the spec's error shape (never a 500) for paths and methods that make no sense.
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { VerificationService } from '../../../../electron/core/service/verification-service.ts';
import { apiClient, startTestService } from '../../../support/service-harness.ts';

let service: VerificationService;
let clock = Date.UTC(2026, 10, 21, 12, 0, 10);
let key: string;

beforeAll(async () => {
  service = await startTestService({ now: () => clock });
  key = (await service.dashboard.createKey('sandbox', 'good')).key;
});
afterAll(() => service.close());

const rateRows = async () => ((await service.db.get('SELECT COUNT(*) AS n FROM rate_windows')) as { n: number }).n;
const lastUsed = async () =>
  ((await service.db.get('SELECT last_used_at FROM api_keys WHERE label = ?', ['good'])) as { last_used_at: number })
    .last_used_at;

/** Sends `request` as raw bytes and reads the whole answer (the service closes the connection). */
function rawExchange(request: string): Promise<string> {
  const { port } = new URL(service.baseUrl);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), '127.0.0.1', () => socket.write(request));
    let answer = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => (answer += chunk));
    socket.on('end', () => resolve(answer));
    socket.on('error', reject);
    socket.setTimeout(5000, () => reject(new Error(`no answer to ${JSON.stringify(request.slice(0, 40))}`)));
  });
}

describe('wrong keys from one address', () => {
  it('are refused with 429 and Retry-After past the limit, before any key is read, and nothing is written', async () => {
    const guess = apiClient(service, 'svc_test_00000000000000000000000000000000');
    const rowsBefore = await rateRows();
    for (let i = 1; i <= 60; i += 1) {
      const answer = await guess('GET', '/account');
      expect(answer.status).toBe(401);
      expect(answer.headers.get('x-ratelimit-remaining')).toBe(String(60 - i));
    }
    const refused = await guess('GET', '/account');
    expect(refused.status).toBe(429);
    expect(refused.body.error).toMatchObject({ type: 'rate_limit_error', code: 'rate_limited' });
    expect(refused.headers.get('retry-after')).toBe('50');
    expect(await rateRows()).toBe(rowsBefore);

    // The good key from the same address waits too (it is not looked up: its last use does not move)...
    const usedBefore = await lastUsed();
    expect((await apiClient(service, key)('GET', '/account')).status).toBe(429);
    expect(await lastUsed()).toBe(usedBefore);
    // ...and works once the window has passed.
    clock += 50_000;
    expect((await apiClient(service, key)('GET', '/account')).status).toBe(200);
  });
});

describe('paths and methods no client should send', () => {
  it('answers a broken percent-encoding with 400 and an impossible id with 404, in the spec shape', async () => {
    clock += 60_000;
    const api = apiClient(service, key);
    for (const path of ['/batches/%E0%A4%A', '/batches/%ZZ/results', '/batches/%E0%A4%A/cancel']) {
      const method = path.endsWith('cancel') ? 'POST' : 'GET';
      const answer = await api(method, path);
      expect(answer.status, path).toBe(400);
      expect(answer.body.error).toMatchObject({ type: 'invalid_request_error', code: 'malformed_path' });
    }
    for (const path of [`/batches/${'b'.repeat(5000)}`, '/batches/b%00x', '/batches/%0d%0aSet-Cookie:x/results']) {
      const answer = await api('GET', path);
      expect(answer.status, path).toBe(404);
      expect(answer.body.error.type).toBe('invalid_request_error');
    }
  });

  it('answers a method a route does not take with 405, and one no HTTP parser knows with 400, never a 500', async () => {
    const api = apiClient(service, key);
    for (const method of ['PUT', 'DELETE', 'PATCH', 'PROPFIND']) {
      const answer = await api(method, '/batches');
      expect(answer.status, method).toBe(405);
      expect(answer.body.error.code).toBe('method_not_allowed');
    }
    const unknown = await rawExchange('FROB /v1/account HTTP/1.1\r\nHost: x\r\n\r\n');
    expect(unknown).toMatch(/^HTTP\/1\.1 400 /);
    expect(JSON.parse(unknown.slice(unknown.indexOf('\r\n\r\n') + 4))).toMatchObject({
      error: { type: 'invalid_request_error', code: 'malformed_request' },
    });
    const trace = await rawExchange(
      `TRACE /v1/batches HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${key}\r\nConnection: close\r\n\r\n`,
    );
    expect(trace).toMatch(/^HTTP\/1\.1 405 /);
    const tunnel = await rawExchange('CONNECT 127.0.0.1:25 HTTP/1.1\r\nHost: 127.0.0.1:25\r\n\r\n');
    expect(tunnel).toMatch(/^HTTP\/1\.1 405 /);
    const absolute = await rawExchange(
      `GET http://[oops/v1/account HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${key}\r\nConnection: close\r\n\r\n`,
    );
    expect(absolute).toMatch(/^HTTP\/1\.1 400 /);
  });
});
