// decide(outcome, tries): the spec's waits on 429, backoff for transient failures, and which answers are final,
// driven as the request runner drives it, on a fake clock.
import { describe, expect, it } from 'vitest';
import { keyMaskingFor, type ServiceClientError } from '../../../../electron/core/client/client-errors.ts';
import { createRetryPolicy, type Decision, type Outcome } from '../../../../electron/core/client/retry-policy.ts';
import { fakeClock } from '../../../support/fault-proxy.ts';

const key = 'svc_live_retrypolicysecret00000000';
const call = 'GET /batches/{id}';

function policy(options: { random?: number; maxTransientRetries?: number } = {}) {
  const clock = fakeClock();
  const decide = createRetryPolicy({
    maxTransientRetries: options.maxTransientRetries ?? 5,
    random: () => options.random ?? 0.5,
    clock,
    where: 'api.example.com',
    keys: keyMaskingFor(key),
  });
  /** Feeds outcomes one try at a time, waiting out each retry on the fake clock, until one is final. */
  const drive = async (next: (tryIndex: number) => Outcome) => {
    const tries: Outcome[] = [];
    const pauses: boolean[] = [];
    for (;;) {
      const outcome = next(tries.length);
      const decision: Decision = decide(outcome, tries);
      if (decision.action === 'fail') return { error: decision.error, tries: tries.length + 1, pauses };
      tries.push(outcome);
      pauses.push(decision.pauseBudget);
      await clock.sleep(decision.waitMs);
    }
  };
  return { clock, decide, drive };
}

const answer = (status: number, extra: Partial<Extract<Outcome, { kind: 'answer' }>> = {}): Outcome => ({
  call,
  kind: 'answer',
  status,
  retryAfter: null,
  ...extra,
});
/** The shape fetch throws: `TypeError: fetch failed`, with the system's error as its cause. */
const fetchFailed = (code: string, message = code): Outcome => ({
  call,
  kind: 'unreachable',
  error: new TypeError('fetch failed', { cause: Object.assign(new Error(message), { code }) }),
});

describe('decide on 429', () => {
  it('waits Retry-After plus jitter widening from 3 s to 6 s to 12 s, pausing the shared budget, five tries at most', async () => {
    const { clock, drive } = policy({ random: 1 });
    const { error, tries, pauses } = await drive(() => answer(429, { retryAfter: '2' }));
    expect(clock.waits).toEqual([5000, 8000, 14_000, 14_000]);
    expect(pauses).toEqual([true, true, true, true]);
    expect(tries).toBe(5);
    expect(error).toMatchObject({ kind: 'rate_limited', status: 429 });
  });

  it('reads Retry-After as an HTTP date against the clock, and counts a missing one as a second', async () => {
    const { clock, drive } = policy({ random: 0 });
    const inTenSeconds = new Date(clock.now() + 10_000).toUTCString();
    await drive((index) =>
      index === 0 ? answer(429, { retryAfter: inTenSeconds }) : index === 1 ? answer(429) : answer(404),
    );
    expect(clock.waits).toEqual([10_000, 1000]);
  });

  it('counts 429s apart from transient failures: neither uses up the other’s tries', async () => {
    const { clock, drive } = policy({ random: 1, maxTransientRetries: 2 });
    const script = [answer(503), answer(429, { retryAfter: '0' }), answer(503), answer(429, { retryAfter: '0' })];
    const { error } = await drive((index) => script[index] ?? answer(503));
    // Backoff 500 then 1000 ms for the 503s; 3 s then 6 s of jitter for the 429s; the third 503 ends it.
    expect(clock.waits).toEqual([500, 3000, 1000, 6000]);
    expect(error).toMatchObject({ kind: 'unavailable', status: 503 });
    expect(error.message).toContain('tried 5 times');
  });
});

describe('decide on transient failures', () => {
  it('backs off with capped exponential jitter without pausing the budget, then fails as unavailable', async () => {
    const { clock, drive } = policy({ random: 1, maxTransientRetries: 8 });
    const { error, tries, pauses } = await drive(() => answer(502));
    expect(clock.waits).toEqual([500, 1000, 2000, 4000, 8000, 16_000, 30_000, 30_000]);
    expect(pauses.every((paused) => !paused)).toBe(true);
    expect(tries).toBe(9);
    expect(error).toMatchObject({ kind: 'unavailable', status: 502 });
    expect(error.message).toBe(
      'GET /batches/{id} kept failing at the service at api.example.com with HTTP 502, an error on its side (tried 9 times).',
    );
  });

  it('draws the jitter from the whole window', async () => {
    const { clock, drive } = policy({ random: 0.25, maxTransientRetries: 3 });
    await drive(() => ({ call, kind: 'timeout', afterMs: 60_000 }));
    expect(clock.waits).toEqual([125, 250, 500]);
  });

  it('says what failed in words, with the call and the host', async () => {
    const cases: [Outcome, RegExp][] = [
      [
        fetchFailed('ENOTFOUND', 'getaddrinfo ENOTFOUND api.example.com'),
        /no host by that name was found \(ENOTFOUND\)\. Check the base URL\./,
      ],
      [fetchFailed('ECONNRESET'), /the connection was dropped before an answer came \(ECONNRESET\)/],
      [fetchFailed('EHOSTUNREACH'), /unreachable from this network/],
      [
        fetchFailed('CERT_HAS_EXPIRED'),
        /secure \(TLS\) connection failed \(CERT_HAS_EXPIRED\)\. Its certificate has expired\./,
      ],
      [fetchFailed('ERR_TLS_CERT_ALTNAME_INVALID'), /TLS.*Its certificate is for a different host name/],
      [{ call, kind: 'timeout', afterMs: 60_000 }, /got no answer from the service at api\.example\.com within 60 s/],
    ];
    for (const [outcome, words] of cases) {
      const { error } = await policy({ maxTransientRetries: 0 }).drive(() => outcome);
      expect(error.kind).toBe('unavailable');
      expect(error.message).toMatch(words);
      expect(error.message).toContain('GET /batches/{id}');
      expect(error.message).toContain('tried 1 time)');
    }
  });

  it('tries once only when every try would fail the same way: a blocked port, a certificate', async () => {
    const blockedPort: Outcome = {
      call,
      kind: 'unreachable',
      error: new TypeError('fetch failed', { cause: new Error('bad port') }),
    };
    for (const outcome of [blockedPort, fetchFailed('CERT_HAS_EXPIRED'), fetchFailed('EPROTO')]) {
      const { clock, drive } = policy();
      const { error, tries } = await drive(() => outcome);
      expect(tries).toBe(1);
      expect(clock.waits).toEqual([]);
      expect(error).toMatchObject({ kind: 'unavailable' });
    }
    // A refused connection may pass (the service restarting): tried again.
    const refused = await policy().drive(() => fetchFailed('ECONNREFUSED'));
    expect(refused.tries).toBe(6);
  });

  it('masks a key that a system message carries', async () => {
    const error = new TypeError('fetch failed', { cause: new Error(`odd failure near ${key}`) });
    const failed = await policy({ maxTransientRetries: 0 }).drive(() => ({ call, kind: 'unreachable', error }));
    expect(failed.error.message).toContain('odd failure near');
    expect(failed.error.message).not.toContain(key);
    expect(failed.error.message).toContain('svc_live_…0000');
  });
});

describe('decide on final answers', () => {
  it('never retries 400, 401, 402 or another 4xx, and maps each status to its kind', async () => {
    const expected: [status: number, code: string, shape: Partial<ServiceClientError>][] = [
      [400, 'invalid_limit', { kind: 'bad_request' }],
      [401, 'invalid_api_key', { kind: 'authentication' }],
      [402, 'insufficient_credits', { kind: 'payment', balance: 3 }],
      [404, 'batch_not_found', { kind: 'not_found' }],
      [409, 'batch_not_running', { kind: 'conflict' }],
      [410, 'results_expired', { kind: 'cursor_expired' }],
      [400, 'cursor_expired', { kind: 'cursor_expired' }],
      [422, 'anything', { kind: 'bad_request' }],
    ];
    for (const [status, code, shape] of expected) {
      const { clock, drive } = policy();
      const balance = status === 402 ? 3 : undefined;
      const { error, tries } = await drive(() => answer(status, { type: 'x', code, message: 'said', balance }));
      expect(tries).toBe(1);
      expect(clock.waits).toEqual([]);
      expect(error).toMatchObject({ ...shape, status, code });
    }
  });

  it('names the key only masked when refusing it, even if the service echoes it', async () => {
    const { error } = await policy().drive(() => answer(401, { type: 'authentication_error', message: `bad ${key}` }));
    expect(error.message).toBe(
      `The service refused the key svc_live_…0000: it is wrong or revoked. GET /batches/{id} answered 401: bad svc_live_…0000`,
    );
  });
});
