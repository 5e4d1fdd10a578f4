// The service in its own process: killed mid-batch and restarted on the same database, and fed a
// 100 MB upload under a heap too small to hold it.
import { afterEach, describe, expect, it } from 'vitest';
import { bigUploadRows, uploadBigCsv } from '../../../support/big-upload.ts';
import { startChildService, type ChildService } from '../../../support/child-service.ts';
import { addresses, apiClient, prepareKey, testServicePlace, waitFor } from '../../../support/service-harness.ts';

const children: ChildService[] = [];
afterEach(async () => {
  for (const child of children.splice(0)) await child.kill();
});

const prepareLiveKey = (place: { dataDir: string; database?: string }, topUp: number) =>
  prepareKey(place, { mode: 'live', limits: { batchStatus: { limit: 100_000, windowSeconds: 60 } }, topUp });

describe('restart', () => {
  it('finishes a batch after a crash with every address verified once and billed once', async () => {
    const place = await testServicePlace();
    const key = await prepareLiveKey(place, 1000);
    // On PostgreSQL other processes may share the database, so the killed one's claims stand until it is
    // found gone (SQLite's one process lets them go at start): here after 3 s rather than 30.
    const config = { ...place, probesPerSecondPerHost: 100, processHeartbeatMs: 250, processGoneAfterMs: 3000 };
    const first = await startChildService(config);
    children.push(first);
    const emails = addresses(400, 'crash.example');
    const created = await apiClient(first, key)(
      'POST',
      '/batches',
      { name: 'crash', emails },
      { 'Idempotency-Key': 'crash-1' },
    );
    expect(created.status).toBe(201);
    await waitFor(
      async () => (await apiClient(first, key)('GET', `/batches/${created.body.id}`)).body.summary.billed >= 100,
      10_000,
    );
    await first.kill();

    const second = await startChildService(config);
    children.push(second);
    const api = apiClient(second, key);
    const mid = await api('GET', `/batches/${created.body.id}`);
    expect(mid.body.status).toBe('running');
    expect(mid.body.summary.billed).toBeGreaterThanOrEqual(100);
    expect(mid.body.summary.billed).toBeLessThan(400);
    // The same request again after the crash is recognised, not a second batch.
    const retried = await api('POST', '/batches', { name: 'crash', emails }, { 'Idempotency-Key': 'crash-1' });
    expect(retried.body.id).toBe(created.body.id);

    const done = await waitFor(async () => {
      const status = await api('GET', `/batches/${created.body.id}`);
      return status.body.status === 'complete' && status.body;
    }, 15_000);
    expect(done).toMatchObject({ submitted: 400, unique: 400, summary: { billed: 400 } });
    const rows = (await api('GET', `/batches/${created.body.id}/results?limit=1000`)).body.data as {
      email: string;
      billed: boolean;
    }[];
    expect(rows).toHaveLength(400);
    expect(new Set(rows.map((row) => row.email))).toEqual(new Set(emails));
    expect(rows.every((row) => row.billed)).toBe(true);
    // 100 free checks, then 300 from the balance of 1000: nothing spent twice.
    expect((await api('GET', '/account')).body).toMatchObject({ balance: 700, free_remaining: 0 });
  });
});

describe('file upload', () => {
  it('takes a 100 MB upload under a 64 MB heap, a row at a time', async () => {
    const place = await testServicePlace();
    const key = await prepareLiveKey(place, 100_000);
    // A 64 MB heap: holding the upload (or its rows) in memory would end the process. Probing is slowed
    // right down so the batch is still running when it answers. The memory it grows by is a figure, in
    // the timing tier (test/integration/timing/upload-memory.test.ts).
    const service = await startChildService({ ...place, sandboxProbesPerSecondPerHost: 1 }, [
      '--max-old-space-size=64',
    ]);
    children.push(service);
    const { size, status, body } = await uploadBigCsv(service, key, place.dataDir);
    expect(size).toBeGreaterThan(100 * 1024 * 1024);
    expect(status).toBe(201);
    expect(body).toMatchObject({ name: 'big', submitted: bigUploadRows, unique: bigUploadRows, status: 'running' });
    expect(service.child.exitCode).toBeNull();
  });
});
