// The verdict cache in the app, through the real dispatch and Sift's own service: a list dropped again
// after it was cleaned is told what is known already; the person can check every address instead (and
// back); Settings shows what is kept and forgets it.
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { CacheStats, JobOverview } from '../../../../electron/common/contract.ts';
import { createAppRuntime } from '../../../../electron/core/app/app-runtime.ts';
import { appCaller } from '../../../support/app-call.ts';
import { waitFor } from '../../../support/service-harness.ts';

const ipc = { transport: 'ipc' as const };

const call = appCaller('ipc');

describe('the verdict cache in the app', () => {
  it('reuses verdicts for a list dropped again, checks all on request, and clears from Settings', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'sift-app-cache-'));
    const runtime = await createAppRuntime({ dataDir, appVersion: '1.0.0' });
    try {
      const path = join(dataDir, 'guests.csv');
      const addresses = Array.from({ length: 30 }, (_, i) => `${i % 5 === 0 ? 'unknown' : 'valid'}${i}@party.example`);
      await writeFile(path, `Guest,Email\n${addresses.map((address, i) => `G${i},${address}`).join('\n')}\n`);
      const first = await call<JobOverview>(runtime, 'jobs:create', { file: { kind: 'path', path } });
      expect(first).toMatchObject({ useCache: true, cost: { checks: 30, cached: 0 } });
      await call(runtime, 'jobs:start', { jobId: first.jobId });
      await waitFor(
        async () => (await call<JobOverview>(runtime, 'jobs:get', { jobId: first.jobId })).phase === 'done',
      );
      const kept = await waitFor(async () => {
        const stats = await call<CacheStats>(runtime, 'cache:stats', {});
        return stats.entries === 24 && stats;
      }, 10_000);
      expect(kept).toMatchObject({ sandbox: 24, live: 0, maxAgeDays: { invalid: 90, valid: 30, catch_all: 30 } });
      expect(kept.bytes).toBeGreaterThan(0);

      const second = await call<JobOverview>(runtime, 'jobs:create', { file: { kind: 'path', path } });
      expect(second).toMatchObject({ useCache: true, cost: { checks: 6, cached: 24 }, progress: { total: 6 } });
      const everything = await call<JobOverview>(runtime, 'jobs:useCache', { jobId: second.jobId, useCache: false });
      expect(everything).toMatchObject({ useCache: false, cost: { checks: 30, cached: 0 } });
      const reused = await call<JobOverview>(runtime, 'jobs:useCache', { jobId: second.jobId, useCache: true });
      expect(reused).toMatchObject({ useCache: true, cost: { checks: 6, cached: 24 } });

      await call(runtime, 'jobs:start', { jobId: second.jobId });
      const done = await waitFor(async () => {
        const job = await call<JobOverview>(runtime, 'jobs:get', { jobId: second.jobId });
        return job.phase === 'done' && job;
      });
      expect(done.summary).toMatchObject({ to_check: 30, cached: 24, unverified: 0 });
      const cachedRows = await call<{ rows: { cachedAt: number | null }[] }>(runtime, 'jobs:rows', {
        jobId: second.jobId,
        offset: 0,
        limit: 30,
      });
      expect(cachedRows.rows.filter((row) => row.cachedAt !== null)).toHaveLength(24);
      // Only a list not yet sent can choose.
      const refused = await runtime.dispatch('jobs:useCache', { jobId: second.jobId, useCache: false }, ipc);
      expect(refused).toMatchObject({ ok: false, error: { code: 'bad_request' } });

      expect(await call(runtime, 'cache:clear', {})).toEqual({ forgotten: 24 });
      expect(await call(runtime, 'cache:stats', {})).toMatchObject({ entries: 0, oldest: null });
      const third = await call<JobOverview>(runtime, 'jobs:create', { file: { kind: 'path', path } });
      expect(third.cost).toMatchObject({ checks: 30, cached: 0 });
    } finally {
      await runtime.close();
    }
  }, 60_000);
});
