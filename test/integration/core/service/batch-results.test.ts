// Batches, results paging while the batch still runs, filters, and the CSV download.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { VerificationService } from '../../../../electron/core/service/verification-service.ts';
import { addresses, apiClient, startTestService, waitFor } from '../../../support/service-harness.ts';

let service: VerificationService;
let key: string;
let api: ReturnType<typeof apiClient>;

beforeAll(async () => {
  // Slow pacing for one mail host, so the batch is still running while the test pages through it.
  service = await startTestService({ sandboxProbesPerSecondPerHost: 40 });
  const created = await service.dashboard.createKey('sandbox', 'results');
  key = created.key;
  // These tests poll status far more often than a real client should.
  await service.dashboard.setKeyRateLimits(created.record.id, { batchStatus: { limit: 100_000, windowSeconds: 60 } });
  api = apiClient(service, key);
});
afterAll(() => service.close());

async function completedBatch(emails: string[]) {
  const created = await api('POST', '/batches', { name: 'done', emails });
  await waitFor(async () => (await api('GET', `/batches/${created.body.id}`)).body.status === 'complete');
  return created.body.id as string;
}

describe('batches', () => {
  it('creates a batch with the counts and a running status', async () => {
    const response = await api('POST', '/batches', {
      name: 'Spring list',
      emails: ['a@example.com', ' A@example.com', 'b@example.com', 'not-an-address'],
    });
    expect(response.status).toBe(201);
    expect(response.body).toMatchObject({
      id: expect.stringMatching(/^bat_/),
      name: 'Spring list',
      status: 'running',
      submitted: 4,
      unique: 3,
    });
    const status = await api('GET', `/batches/${response.body.id}`);
    expect(status.body).toMatchObject({ id: response.body.id, submitted: 4, unique: 3, summary: { duplicates: 1 } });
  });

  it('refuses malformed batches with 400', async () => {
    expect((await api('POST', '/batches', { name: 'x' })).body.error).toMatchObject({
      type: 'invalid_request_error',
      code: 'invalid_batch',
    });
    expect((await api('POST', '/batches', { emails: [] })).body.error.code).toBe('empty_batch');
    expect((await api('POST', '/batches', '{', { 'Content-Type': 'application/json' })).status).toBe(400);
  });
});

describe('results paging', () => {
  it('yields every row exactly once across pages while the batch runs, then ends on complete', async () => {
    const emails = [
      ...addresses(150, 'slow.example'),
      'bad address',
      ...addresses(10, 'slow.example').map((e) => e.toUpperCase()),
    ];
    const created = await api('POST', '/batches', { name: 'paged', emails });
    const id = created.body.id as string;
    const seen: string[] = [];
    const cursors: string[] = [];
    let cursor: string | null = null;
    let sawRunningPage = false;
    const deadline = Date.now() + 20_000;
    for (;;) {
      const page = await api(
        'GET',
        `/batches/${id}/results?limit=7${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
      );
      expect(page.status).toBe(200);
      expect(page.body.data.length).toBeLessThanOrEqual(7);
      seen.push(...page.body.data.map((row: { email: string }) => row.email));
      const status = (await api('GET', `/batches/${id}`)).body.status;
      if (status === 'running') sawRunningPage = true;
      if (!page.body.has_more) {
        expect(page.body.next_cursor).toBeNull();
        break;
      }
      cursor = page.body.next_cursor;
      cursors.push(cursor!);
      if (Date.now() > deadline) throw new Error('paging did not finish');
      if (page.body.data.length === 0) await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(sawRunningPage).toBe(true);
    expect((await api('GET', `/batches/${id}`)).body.status).toBe('complete');
    expect(seen).toHaveLength(151);
    expect(new Set(seen).size).toBe(151);
    expect(new Set(seen)).toEqual(new Set([...addresses(150, 'slow.example'), 'bad address']));
    // Opaque: neither the batch id nor a row number can be read out of a cursor.
    for (const c of cursors) {
      expect(c).toMatch(/^[A-Za-z0-9_-]+$/);
      expect(Buffer.from(c, 'base64url').toString('latin1')).not.toContain(id.slice(4));
    }

    // A cursor kept from the middle re-reads from that point.
    const middle = cursors[5]!;
    const again = await api('GET', `/batches/${id}/results?limit=1000&cursor=${encodeURIComponent(middle)}`);
    expect(again.body.data.map((row: { email: string }) => row.email)).toEqual(
      seen.slice(seen.length - again.body.data.length),
    );
    expect(again.body).toMatchObject({ has_more: false, next_cursor: null });
  });

  it('refuses a cursor from another batch, a tampered cursor and limits outside 1..1000', async () => {
    const first = await completedBatch(['valid1@example.com', 'valid2@example.com']);
    const second = await completedBatch(['valid3@example.com', 'valid4@example.com']);
    const page = await api('GET', `/batches/${first}/results?limit=1`);
    const cursor = page.body.next_cursor as string;
    const foreign = await api('GET', `/batches/${second}/results?cursor=${encodeURIComponent(cursor)}`);
    expect(foreign.status).toBe(400);
    expect(foreign.body.error).toMatchObject({ type: 'invalid_request_error', code: 'invalid_cursor' });
    const tampered = `${cursor.slice(0, -2)}${cursor.endsWith('AA') ? 'BB' : 'AA'}`;
    expect((await api('GET', `/batches/${first}/results?cursor=${tampered}`)).status).toBe(400);
    for (const limit of ['0', '1001', '-1', 'abc', '2.5']) {
      const response = await api('GET', `/batches/${first}/results?limit=${limit}`);
      expect(response.status).toBe(400);
      expect(response.body.error.code).toBe('invalid_limit');
    }
    expect((await api('GET', `/batches/${first}/results?limit=1000`)).body.data).toHaveLength(2);
    expect((await api('GET', `/batches/${first}/results`)).body).toMatchObject({ has_more: false, next_cursor: null });
  });

  it('filters on one verdict', async () => {
    const id = await completedBatch([
      'valid1@example.com',
      'invalid1@example.com',
      'unknown1@example.com',
      'catchall1@example.com',
      'unknown2@example.com',
      'nope',
    ]);
    const unknown = await api('GET', `/batches/${id}/results?filter=unknown`);
    expect(unknown.body.data.map((row: { email: string }) => row.email).sort()).toEqual([
      'unknown1@example.com',
      'unknown2@example.com',
    ]);
    const invalid = await api('GET', `/batches/${id}/results?filter=invalid`);
    expect(invalid.body.data.map((row: { email: string }) => row.email).sort()).toEqual([
      'invalid1@example.com',
      'nope',
    ]);
    const status = await api('GET', `/batches/${id}`);
    expect(status.body.summary).toMatchObject({
      valid: 1,
      invalid: 2,
      unknown: 2,
      catch_all: 1,
      duplicates: 0,
      billed: 0,
    });
    expect(status.body.completed_at).toMatch(/^\d{4}-\d{2}-\d{2}T/);
  });

  it('lets cursors expire with the retention window', async () => {
    let clock = Date.now();
    const short = await startTestService({ retentionMs: 60_000, now: () => clock });
    try {
      const shortApi = apiClient(short, (await short.dashboard.createKey('sandbox', 'r')).key);
      const created = await shortApi('POST', '/batches', { emails: ['valid1@example.com', 'valid2@example.com'] });
      await waitFor(async () => (await shortApi('GET', `/batches/${created.body.id}`)).body.status === 'complete');
      const page = await shortApi('GET', `/batches/${created.body.id}/results?limit=1`);
      clock += 61_000;
      const expired = await shortApi(
        'GET',
        `/batches/${created.body.id}/results?cursor=${encodeURIComponent(page.body.next_cursor)}`,
      );
      expect(expired.status).toBe(400);
      expect(expired.body.error.code).toBe('cursor_expired');
    } finally {
      await short.close();
    }
  });
});

describe('CSV download', () => {
  it('answers 409 while running, then one row per result', async () => {
    const created = await api('POST', '/batches', { emails: addresses(60, 'csv.example') });
    const early = await api('GET', `/batches/${created.body.id}/results.csv`);
    expect(early.status).toBe(409);
    expect(early.body.error.code).toBe('batch_not_complete');
    await waitFor(async () => (await api('GET', `/batches/${created.body.id}`)).body.status === 'complete', 15_000);
    const csv = await api('GET', `/batches/${created.body.id}/results.csv`);
    expect(csv.headers.get('content-type')).toContain('text/csv');
    const lines = csv.text.trim().split('\r\n');
    // The spec's three columns, then Sift's own reason and provider (none in the sandbox; see wire assumptions).
    expect(lines[0]).toBe('email,result,billed,reason,provider');
    const json = await api('GET', `/batches/${created.body.id}/results?limit=1000`);
    expect(lines.slice(1)).toEqual(
      json.body.data.map(
        (row: { email: string; result: string; billed: boolean; reason?: string }) =>
          `${row.email},${row.result},${row.billed},${row.reason ?? ''},`,
      ),
    );
  });

  it('guards cells a spreadsheet would run as formulas', async () => {
    const created = await api('POST', '/batches', { emails: ['=valid.f@example.com', '+valid.g@example.com'] });
    await waitFor(async () => (await api('GET', `/batches/${created.body.id}`)).body.status === 'complete', 15_000);
    const lines = (await api('GET', `/batches/${created.body.id}/results.csv`)).text.trim().split('\r\n');
    expect(
      lines
        .slice(1)
        .map((line) => line.split(',')[0])
        .sort(),
    ).toEqual(["'+valid.g@example.com", "'=valid.f@example.com"]);
  });
});

describe('a store that has made millions of batches', () => {
  it('works, pages and downloads a batch whose row keys are past 2^53', async () => {
    const far = await startTestService({ sandboxProbesPerSecondPerHost: 1000 });
    try {
      const { key, record } = await far.dashboard.createKey('sandbox', 'far');
      await far.dashboard.setKeyRateLimits(record.id, { batchStatus: { limit: 100_000, windowSeconds: 60 } });
      // As if 2^22 batches came before: the next batch's row keys start at 2^54, where a double cannot
      // tell key + 1 from key.
      await far.db.run(
        "INSERT INTO batches (id, key_id, mode, name, status, created_at, row_key) VALUES ('bat_old', ?, 'sandbox', 'old', 'complete', 0, ?)",
        [record.id, 2 ** 22],
      );
      const farApi = apiClient(far, key);
      const emails = addresses(5, 'far.example');
      const created = await farApi('POST', '/batches', { name: 'far', emails });
      // The worker works the batch (pacing is on), reading its pending rows after each one it did.
      await waitFor(async () => (await farApi('GET', `/batches/${created.body.id}`)).body.status === 'complete');
      const paged: string[] = [];
      let cursor: string | null = null;
      for (let page = 0; page < 10; page += 1) {
        const query: string = cursor === null ? '' : `&cursor=${cursor}`;
        const response = await farApi('GET', `/batches/${created.body.id}/results?limit=2${query}`);
        paged.push(...response.body.data.map((row: { email: string }) => row.email));
        cursor = response.body.next_cursor;
        if (!response.body.has_more) break;
      }
      expect([...paged].sort()).toEqual([...emails].sort());
      const csv = (await farApi('GET', `/batches/${created.body.id}/results.csv`)).text.trim().split('\r\n');
      expect(csv.slice(1).map((line) => line.split(',')[0])).toEqual(paged);
    } finally {
      await far.close();
    }
  });
});
