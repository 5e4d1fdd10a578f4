// Reading results while a batch runs: every row once, resumable from a persisted cursor, and
// tolerant of what the spec leaves open (cursor encodings, unknown verdicts and statuses).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRateBudget } from '../../../../electron/core/client/rate-budget.ts';
import { readResults, type ResultsChunk } from '../../../../electron/core/client/results-reader.ts';
import { createServiceClient, type ServiceClient } from '../../../../electron/core/client/service-client.ts';
import type { VerificationService } from '../../../../electron/core/service/verification-service.ts';
import { startFaultProxy, type Forwarded } from '../../../support/fault-proxy.ts';
import { addresses, startTestService } from '../../../support/service-harness.ts';

let service: VerificationService;

beforeAll(async () => {
  service = await startTestService({ sandboxProbesPerSecondPerHost: 60 });
});
afterAll(() => service.close());

async function clientFor(label: string, baseUrl = service.baseUrl): Promise<ServiceClient> {
  const { key, record } = await service.dashboard.createKey('sandbox', label);
  await service.dashboard.setKeyRateLimits(record.id, { batchStatus: { limit: 10_000, windowSeconds: 60 } });
  return createServiceClient({ baseUrl, apiKey: key, budget: createRateBudget({}) });
}

const fast = { pollIntervalMs: 30, statusEveryMs: 100, limit: 9 };

function rewriteJson(answer: Forwarded, change: (body: Record<string, unknown>) => void): Forwarded {
  const body = JSON.parse(answer.body.toString('utf8'));
  change(body);
  return { ...answer, body: Buffer.from(JSON.stringify(body)) };
}

describe('readResults', () => {
  it('yields every row once while the batch runs, and resumes from a persisted cursor', async () => {
    const client = await clientFor('resume');
    const emails = addresses(150, 'read.example');
    const batch = await client.createBatch({ name: 'read', emails });
    const got: string[] = [];
    let saved: ResultsChunk | undefined;
    let chunks = 0;
    for await (const chunk of readResults(client, batch.id, fast)) {
      got.push(...chunk.rows.map((row) => row.email));
      saved = chunk;
      chunks += 1;
      if (chunks === 4) break; // the app is killed here; rows and cursor were persisted together
    }
    expect((await client.getBatch(batch.id)).status).toBe('running');
    const reader = readResults(client, batch.id, { ...fast, cursor: saved!.cursor, skip: saved!.skip });
    let final;
    for (;;) {
      const next = await reader.next();
      if (next.done) {
        final = next.value;
        break;
      }
      got.push(...next.value.rows.map((row) => row.email));
    }
    expect(final.status).toBe('complete');
    expect(got).toHaveLength(150);
    expect(new Set(got)).toEqual(new Set(emails));
  });

  it('passes back a cursor whose encoding changes between pages exactly as received', async () => {
    const tokens = new Map<string, string>();
    let page = 0;
    const proxy = await startFaultProxy(service.baseUrl, (request) => {
      const url = new URL(request.url, 'http://x');
      if (!url.pathname.endsWith('/results')) return { kind: 'forward' };
      const cursor = url.searchParams.get('cursor');
      if (cursor !== null) {
        if (!tokens.has(cursor))
          return {
            kind: 'respond',
            status: 400,
            body: '{"error":{"type":"invalid_request_error","code":"invalid_cursor","message":"x"}}',
          };
        url.searchParams.set('cursor', tokens.get(cursor)!);
      }
      return {
        kind: 'forward-as',
        url: `${url.pathname}${url.search}`,
        rewrite: (answer) =>
          rewriteJson(answer, (body) => {
            if (typeof body.next_cursor !== 'string') return;
            page += 1;
            // A new encoding every page: plain hex, then something with dots and tildes.
            const token =
              page % 2
                ? `v${page}.${Buffer.from(body.next_cursor).toString('hex').slice(0, 40)}`
                : `~${page}~${Math.random().toString(36).slice(2)}`;
            tokens.set(token, body.next_cursor);
            body.next_cursor = token;
          }),
      };
    });
    try {
      const client = await clientFor('encoding', proxy.baseUrl);
      const emails = addresses(40, 'enc.example');
      const batch = await client.createBatch({ name: 'enc', emails });
      const got: string[] = [];
      for await (const chunk of readResults(client, batch.id, fast)) got.push(...chunk.rows.map((row) => row.email));
      expect(new Set(got)).toEqual(new Set(emails));
      expect(got).toHaveLength(40);
      expect(page).toBeGreaterThan(3);
    } finally {
      await proxy.close();
    }
  });

  it('passes unknown verdicts and statuses through, and copes with a service that stops giving cursors when caught up', async () => {
    const proxy = await startFaultProxy(service.baseUrl, (request) => {
      const path = new URL(request.url, 'http://x').pathname;
      return {
        kind: 'rewrite',
        rewrite: (answer) =>
          rewriteJson(answer, (body) => {
            if (path.endsWith('/results')) {
              for (const row of body.data as { result: string; extra?: string }[]) {
                if (row.result === 'unknown') row.result = 'spamtrap';
                row.extra = 'ignored';
              }
              // Like a service that says "nothing more for now" while the batch still runs.
              if ((body.data as unknown[]).length < 9) {
                body.has_more = false;
                body.next_cursor = null;
              }
            } else if (body.status === 'running') {
              body.status = 'verifying';
              body.eta_seconds = 3;
            }
          }),
      };
    });
    try {
      const client = await clientFor('tolerant', proxy.baseUrl);
      const emails = [...addresses(45, 'tol.example', 'unknown'), ...addresses(45, 'tol.example', 'valid')];
      const batch = await client.createBatch({ name: 'tolerant', emails });
      expect((await client.getBatch(batch.id)).status).toBe('verifying');
      const rows: { email: string; result: string }[] = [];
      for await (const chunk of readResults(client, batch.id, fast)) rows.push(...chunk.rows);
      expect(rows).toHaveLength(90);
      expect(new Set(rows.map((row) => row.email)).size).toBe(90);
      expect(rows.filter((row) => row.result === 'spamtrap')).toHaveLength(45);
    } finally {
      await proxy.close();
    }
  });

  it('says clearly when a cursor has expired', async () => {
    const proxy = await startFaultProxy(service.baseUrl, () => ({
      kind: 'respond',
      status: 400,
      headers: { 'Content-Type': 'application/json' },
      body: '{"error":{"type":"invalid_request_error","code":"cursor_expired","message":"This cursor expired."}}',
    }));
    try {
      const client = await clientFor('expired', proxy.baseUrl);
      const reader = readResults(client, 'bat_old', { cursor: 'abc' });
      await expect(reader.next()).rejects.toMatchObject({ kind: 'cursor_expired' });
    } finally {
      await proxy.close();
    }
  });
});
