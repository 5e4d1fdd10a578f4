// The client against the embedded service (and a fault proxy in front of it): limits kept,
// the spec's 429 waits, what is and is not retried, and writes that are safe to retry.
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRateBudget, sharedBudgetFor } from '../../../../electron/core/client/rate-budget.ts';
import { createServiceClient } from '../../../../electron/core/client/service-client.ts';
import { openSendLog } from '../../../../electron/core/client/send-log-store.ts';
import type { VerificationService } from '../../../../electron/core/service/verification-service.ts';
import { fakeClock, startFaultProxy } from '../../../support/fault-proxy.ts';
import { startTestService } from '../../../support/service-harness.ts';

let service: VerificationService;

beforeAll(async () => {
  service = await startTestService();
});
afterAll(() => service.close());

function countingFetch() {
  const statuses: number[] = [];
  const wrapped: typeof fetch = async (input, init) => {
    const response = await fetch(input, init);
    statuses.push(response.status);
    return response;
  };
  return { statuses, fetch: wrapped };
}

describe('rate limits', () => {
  it('keeps two concurrent callers on one key inside the budget, the service never answering 429', async () => {
    const { key } = await service.dashboard.createKey('sandbox', 'concurrent');
    const counter = countingFetch();
    const first = createServiceClient({ baseUrl: service.baseUrl, apiKey: key, fetch: counter.fetch });
    const second = createServiceClient({ baseUrl: service.baseUrl, apiKey: key, fetch: counter.fetch });
    expect(sharedBudgetFor(key)).toBe(sharedBudgetFor(key));
    const perCaller = 80;
    const started = Date.now();
    const run = (client: typeof first, tag: string) =>
      (async () => {
        for (let i = 0; i < perCaller; i += 1) await client.verify(`valid.${tag}${i}@example.com`);
      })();
    // Each caller sends several at once, as jobs do.
    await Promise.all([run(first, 'a'), run(first, 'b'), run(second, 'c'), run(second, 'd')]);
    const seconds = (Date.now() - started) / 1000;
    const rate = (perCaller * 4) / seconds;
    expect(counter.statuses.filter((status) => status === 429)).toEqual([]);
    expect(counter.statuses).toHaveLength(perCaller * 4);
    expect(rate).toBeLessThanOrEqual(100 * 1.05 + 100 / seconds);
  });

  it('lets concurrent callers on one budget use the whole allowed rate, waiting only at its edge', async () => {
    // On the clock the budget keeps, so the service's answer time (slow on a loaded machine) is not measured.
    const { key } = await service.dashboard.createKey('sandbox', 'full-rate');
    const sample = await fetch(`${service.baseUrl}/verify`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ email: 'valid@example.com' }),
    });
    const answer = await sample.text();
    expect(sample.status).toBe(200);
    const clock = fakeClock();
    const start = clock.now();
    const sentAt: number[] = [];
    const replay: typeof fetch = async () => {
      sentAt.push(clock.now() - start);
      return new Response(answer, { status: 200, headers: { 'Content-Type': 'application/json' } });
    };
    const budget = createRateBudget();
    const clients = [0, 1].map(() =>
      createServiceClient({ baseUrl: service.baseUrl, apiKey: key, fetch: replay, clock, budget }),
    );
    const run = (client: (typeof clients)[number]) =>
      (async () => {
        for (let i = 0; i < 80; i += 1) await client.verify(`valid.${i}@example.com`);
      })();
    await Promise.all([run(clients[0]!), run(clients[0]!), run(clients[1]!), run(clients[1]!)]);
    // The spec's 100 a second: each hundred goes at once, the next exactly a second later.
    expect(sentAt).toEqual(Array.from({ length: 320 }, (_, i) => Math.floor(i / 100) * 1000));
  });

  it('keeps the submissions of several processes on one key and data folder within ten a minute together', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'sift-send-log-'));
    // Two processes: each its own budget and its own connection to the data folder's send log.
    const budgets = [0, 1].map(() => createRateBudget(undefined, { log: openSendLog(dataDir), budget: 'k' }));
    const clock = fakeClock();
    const sentAt: number[] = [];
    await Promise.all(
      budgets.map(async (budget) => {
        for (let i = 0; i < 12; i += 1) {
          await budget.acquire('createBatch', clock);
          sentAt.push(clock.now());
        }
      }),
    );
    sentAt.sort((a, b) => a - b);
    expect(sentAt).toHaveLength(24);
    // In any minute at most ten, whichever process sent them: the 11th waits for the 1st to be a minute old.
    for (let i = 10; i < sentAt.length; i += 1) expect(sentAt[i]! - sentAt[i - 10]!).toBeGreaterThanOrEqual(60_000);
    // And another key on the same folder has a budget of its own.
    const other = createRateBudget(undefined, { log: openSendLog(dataDir), budget: 'other' });
    const before = clock.now();
    await other.acquire('createBatch', clock);
    expect(clock.now()).toBe(before);
  });

  it('waits Retry-After plus widening jitter on 429, five tries at most', async () => {
    const proxy = await startFaultProxy(service.baseUrl, () => ({
      kind: 'respond',
      status: 429,
      headers: { 'Retry-After': '2', 'Content-Type': 'application/json' },
      body: '{"error":{"type":"rate_limit_error","code":"rate_limited","message":"slow down"}}',
    }));
    try {
      const clock = fakeClock();
      const client = createServiceClient({
        baseUrl: proxy.baseUrl,
        apiKey: 'svc_test_storm000000000000',
        clock,
        random: () => 0.5,
        budget: createRateBudget(),
      });
      await expect(client.getAccount()).rejects.toMatchObject({ kind: 'rate_limited', status: 429 });
      expect(proxy.seen).toHaveLength(5);
      // Retry-After 2 s + half the jitter width: 0–3 s, then 0–6 s, then 0–12 s.
      expect(clock.waits).toEqual([3500, 5000, 8000, 8000]);
    } finally {
      await proxy.close();
    }
  });

  it('survives a 429 storm that ends, and pauses until Reset when Remaining runs low', async () => {
    const { key } = await service.dashboard.createKey('sandbox', 'storm');
    const proxy = await startFaultProxy(service.baseUrl, (_request, index) =>
      index < 3
        ? { kind: 'respond', status: 429, headers: { 'Retry-After': '1' } }
        : {
            kind: 'rewrite',
            rewrite: (answer) => ({
              ...answer,
              headers: {
                ...answer.headers,
                'x-ratelimit-limit': '100',
                'x-ratelimit-remaining': '5',
                'x-ratelimit-reset': String(Date.UTC(2026, 10, 21, 12, 1, 0) / 1000),
              },
            }),
          },
    );
    try {
      const clock = fakeClock();
      const client = createServiceClient({
        baseUrl: proxy.baseUrl,
        apiKey: key,
        clock,
        random: () => 0,
        budget: createRateBudget(),
      });
      await expect(client.getAccount()).resolves.toMatchObject({ mode: 'sandbox' });
      expect(clock.waits).toEqual([1000, 1000, 1000]);
      await client.getAccount();
      // Remaining 5 of 100 is below a tenth: the next call waits for the reset at 12:01:00.
      expect(clock.waits.at(-1)).toBe(Date.UTC(2026, 10, 21, 12, 1, 0) - Date.UTC(2026, 10, 21, 12, 0, 3));
    } finally {
      await proxy.close();
    }
  });
});

describe("a key's own limits", () => {
  it('follows X-RateLimit-Limit when the service gives the key more than the spec does', async () => {
    const { key, record } = await service.dashboard.createKey('sandbox', 'roomy');
    await service.dashboard.setKeyRateLimits(record.id, { createBatch: { limit: 50, windowSeconds: 60 } });
    const clock = fakeClock();
    const client = createServiceClient({ baseUrl: service.baseUrl, apiKey: key, clock, budget: createRateBudget() });
    // The spec's default is ten a minute; this key may send fifty, and says so in its headers.
    for (let i = 0; i < 15; i += 1)
      await client.createBatch({ name: `roomy ${i}`, emails: [`valid.r${i}@example.com`] });
    expect(clock.waits).toEqual([]);
  });

  it('keeps to the spec until the service says otherwise', async () => {
    const { key } = await service.dashboard.createKey('sandbox', 'default');
    const clock = fakeClock();
    const client = createServiceClient({ baseUrl: service.baseUrl, apiKey: key, clock, budget: createRateBudget() });
    await Promise.allSettled(
      Array.from({ length: 11 }, (_, i) =>
        client.createBatch({ name: `plain ${i}`, emails: [`valid.p${i}@example.com`] }),
      ),
    );
    // The eleventh waits for the first to leave the minute's window, before it is sent at all.
    expect(clock.waits[0]).toBeGreaterThan(59_000);
  });
});

describe('errors', () => {
  it('never retries 400, 401 or 402, and says which it was', async () => {
    const live = (await service.dashboard.createKey('live', 'broke')).key;
    const counter = countingFetch();
    const client = createServiceClient({ baseUrl: service.baseUrl, apiKey: live, fetch: counter.fetch });
    await expect(client.getResultsPage('bat_x', { limit: 5000 })).rejects.toMatchObject({ kind: 'not_found' });
    const batch = await client.createBatch({ name: 'tiny', emails: ['valid@example.com'] });
    counter.statuses.length = 0;
    await expect(client.getResultsPage(batch.id, { limit: 5000 })).rejects.toMatchObject({
      kind: 'bad_request',
      status: 400,
      code: 'invalid_limit',
    });
    expect(counter.statuses).toEqual([400]);
    counter.statuses.length = 0;
    await expect(
      client.createBatch({ name: 'big', emails: Array.from({ length: 150 }, (_, i) => `p${i}@example.com`) }),
    ).rejects.toMatchObject({
      kind: 'payment',
      status: 402,
      balance: 0,
    });
    expect(counter.statuses).toEqual([402, 200]); // the 402, then one look at the balance
    const wrong = createServiceClient({
      baseUrl: service.baseUrl,
      apiKey: 'svc_live_notarealkey0000000000',
      fetch: counter.fetch,
    });
    counter.statuses.length = 0;
    await expect(wrong.getAccount()).rejects.toMatchObject({ kind: 'authentication', status: 401 });
    expect(counter.statuses).toEqual([401]);
  });

  it('refuses a key of unknown kind before any request', () => {
    expect(() => createServiceClient({ baseUrl: service.baseUrl, apiKey: 'sk_live_abcdef1234567890' })).toThrow(
      /svc_live_ or svc_test_/,
    );
    expect(() => createServiceClient({ baseUrl: 'ftp://x', apiKey: 'svc_test_abcdef1234567890' })).toThrow(
      /http or https/,
    );
  });

  it('retries 5xx and dropped connections with backoff, then says the service is unavailable', async () => {
    const { key } = await service.dashboard.createKey('sandbox', 'flaky');
    const proxy = await startFaultProxy(service.baseUrl, (_request, index) =>
      index < 2 ? { kind: 'respond', status: 503 } : { kind: 'forward' },
    );
    try {
      const clock = fakeClock();
      const client = createServiceClient({
        baseUrl: proxy.baseUrl,
        apiKey: key,
        clock,
        random: () => 1,
        budget: createRateBudget(),
      });
      await expect(client.getAccount()).resolves.toMatchObject({ mode: 'sandbox' });
      expect(clock.waits).toEqual([500, 1000]);
    } finally {
      await proxy.close();
    }
    // A port that was just free: nothing listens there now.
    const { createServer } = await import('node:net');
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', () => resolve()));
    const closedPort = (probe.address() as { port: number }).port;
    await new Promise<void>((resolve) => probe.close(() => resolve()));
    const clock = fakeClock();
    const down = createServiceClient({
      baseUrl: `http://127.0.0.1:${closedPort}/v1`,
      apiKey: key,
      clock,
      random: () => 1,
      maxTransientRetries: 3,
      budget: createRateBudget(),
    });
    await expect(down.getAccount()).rejects.toMatchObject({
      kind: 'unavailable',
      message: expect.stringContaining('ECONNREFUSED'),
    });
    expect(clock.waits).toEqual([500, 1000, 2000]);
  });

  it('tries again when an answer is not JSON (a captive portal, a proxy), and says so when it stays that way', async () => {
    const { key } = await service.dashboard.createKey('sandbox', 'html');
    const proxy = await startFaultProxy(service.baseUrl, () => ({
      kind: 'respond',
      status: 200,
      headers: { 'Content-Type': 'text/html' },
      body: '<html>captive portal</html>',
    }));
    try {
      const clock = fakeClock();
      const client = createServiceClient({
        baseUrl: proxy.baseUrl,
        apiKey: key,
        clock,
        random: () => 1,
        maxTransientRetries: 2,
        budget: createRateBudget(),
      });
      await expect(client.getBatch('bat_1')).rejects.toMatchObject({
        kind: 'unavailable',
        message: expect.stringMatching(
          /^GET \/batches\/\{id\} got answers from the service at 127\.0\.0\.1:\d+ whose body broke off or was not JSON \(27 bytes that are not whole JSON; tried 3 times\)\.$/,
        ),
      });
      expect(proxy.seen).toHaveLength(3);
    } finally {
      await proxy.close();
    }
  });
});

describe('safe retries', () => {
  it('creates one batch when a POST is retried after its connection dropped', async () => {
    const { key } = await service.dashboard.createKey('sandbox', 'dropped');
    let dropped = false;
    const proxy = await startFaultProxy(service.baseUrl, (request) => {
      if (request.method === 'POST' && !dropped) {
        dropped = true;
        return { kind: 'forward-then-drop' };
      }
      return { kind: 'forward' };
    });
    try {
      const client = createServiceClient({
        baseUrl: proxy.baseUrl,
        apiKey: key,
        random: () => 0,
        budget: createRateBudget(),
      });
      const batch = await client.createBatch(
        { name: 'dropped-once', emails: ['valid1@example.com', 'valid2@example.com'] },
        { idempotencyKey: 'job-7-part-0' },
      );
      const posts = proxy.seen.filter((request) => request.method === 'POST');
      expect(posts).toHaveLength(2);
      expect(posts[0]!.headers['idempotency-key']).toBe('job-7-part-0');
      expect(posts[1]!.headers['idempotency-key']).toBe('job-7-part-0');
      const count = (await service.db.get("SELECT COUNT(*) AS n FROM batches WHERE name = 'dropped-once'")) as {
        n: number;
      };
      expect(count.n).toBe(1);
      expect(batch.id).toMatch(/^bat_/);
    } finally {
      await proxy.close();
    }
  });

  it('reads a GET again, and replays a POST under its key, when an answer is cut off mid-body', async () => {
    const { key } = await service.dashboard.createKey('sandbox', 'cut');
    const cutOnce = new Set<string>();
    const proxy = await startFaultProxy(service.baseUrl, (request) => {
      const route = `${request.method} ${request.url.split('?')[0]}`;
      if (cutOnce.has(route)) return { kind: 'forward' };
      cutOnce.add(route);
      return { kind: 'forward-then-cut' };
    });
    try {
      const clock = fakeClock();
      const client = createServiceClient({
        baseUrl: proxy.baseUrl,
        apiKey: key,
        clock,
        random: () => 0,
        budget: createRateBudget(),
      });
      await expect(client.getAccount()).resolves.toMatchObject({ mode: 'sandbox' });
      const batch = await client.createBatch(
        { name: 'cut-once', emails: ['valid1@example.com', 'valid2@example.com'] },
        { idempotencyKey: 'job-8-part-0' },
      );
      await expect(client.getBatch(batch.id)).resolves.toMatchObject({ id: batch.id });
      const posts = proxy.seen.filter((request) => request.method === 'POST');
      expect(posts.map((request) => request.headers['idempotency-key'])).toEqual(['job-8-part-0', 'job-8-part-0']);
      expect(proxy.seen).toHaveLength(6);
      const count = (await service.db.get("SELECT COUNT(*) AS n FROM batches WHERE name = 'cut-once'")) as {
        n: number;
      };
      expect(count.n).toBe(1);
    } finally {
      await proxy.close();
    }
  });

  it('says in words what failed when every answer is cut off', async () => {
    const { key } = await service.dashboard.createKey('sandbox', 'always-cut');
    const proxy = await startFaultProxy(service.baseUrl, () => ({ kind: 'forward-then-cut' }));
    try {
      const client = createServiceClient({
        baseUrl: proxy.baseUrl,
        apiKey: key,
        clock: fakeClock(),
        random: () => 0,
        maxTransientRetries: 2,
        budget: createRateBudget(),
      });
      await expect(client.getAccount()).rejects.toMatchObject({
        kind: 'unavailable',
        message: expect.stringMatching(
          /^GET \/account got answers .* whose body broke off or was not JSON \(the connection closed mid-answer.*; tried 3 times\)\.$/,
        ),
      });
    } finally {
      await proxy.close();
    }
  });

  it('splits a long list into several batches, each with its own idempotency key', async () => {
    const { key } = await service.dashboard.createKey('sandbox', 'split');
    const client = createServiceClient({ baseUrl: service.baseUrl, apiKey: key, maxBatchSize: 4 });
    const batches = await client.createBatches(
      { name: 'split', emails: Array.from({ length: 10 }, (_, i) => `valid${i}@split.example`) },
      { idempotencyKey: 'job-9' },
    );
    expect(batches.map((batch) => [batch.name, batch.submitted])).toEqual([
      ['split (1/3)', 4],
      ['split (2/3)', 4],
      ['split (3/3)', 2],
    ]);
    const again = await client.createBatches(
      { name: 'split', emails: Array.from({ length: 10 }, (_, i) => `valid${i}@split.example`) },
      { idempotencyKey: 'job-9' },
    );
    expect(again.map((batch) => batch.id)).toEqual(batches.map((batch) => batch.id));
  });

  it('streams a file upload from disk', async () => {
    const { writeFile, mkdtemp } = await import('node:fs/promises');
    const { join } = await import('node:path');
    const { tmpdir } = await import('node:os');
    const path = join(await mkdtemp(join(tmpdir(), 'sift-client-')), 'list.csv');
    await writeFile(path, 'Name,Email\nAnn,valid.ann@example.com\nBob,invalid.bob@example.com\n');
    const { key } = await service.dashboard.createKey('sandbox', 'upload');
    const client = createServiceClient({ baseUrl: service.baseUrl, apiKey: key });
    await expect(client.uploadFile(path, { name: 'from-disk' })).resolves.toMatchObject({
      name: 'from-disk',
      submitted: 2,
      unique: 2,
    });
  });
});
