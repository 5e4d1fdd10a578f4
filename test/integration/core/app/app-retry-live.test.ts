// Retry of a canceled list on a hosted service with a live key, through the real dispatch: the cost read
// for the retry asks the account (nothing new is planned to pay for, but the unchecked addresses will
// be), so a balance that covers them lets the retry go on, and the list ends done, each address billed once.
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { JobOverview } from '../../../../electron/common/contract.ts';
import { createAppRuntime } from '../../../../electron/core/app/app-runtime.ts';
import type { VerificationService } from '../../../../electron/core/service/verification-service.ts';
import { appCaller } from '../../../support/app-call.ts';
import { startTestService, waitFor } from '../../../support/service-harness.ts';

const call = appCaller('ipc');
let hosted: VerificationService;
let liveKey: string;

beforeAll(async () => {
  // One mail host, probed slowly: the list is still being checked when it is canceled.
  hosted = await startTestService({ probesPerSecondPerHost: 100 });
  liveKey = (await hosted.dashboard.createKey('live', 'retry')).key;
  await hosted.dashboard.topUp(1000);
});
afterAll(() => hosted.close());

it('checks the rest of a canceled live list when the balance covers it', async () => {
  const dataDir = await mkdtemp(join(tmpdir(), 'sift-retry-live-'));
  const runtime = await createAppRuntime({ dataDir, appVersion: '1.0.0' });
  try {
    await call(runtime, 'settings:saveHosted', { baseUrl: hosted.baseUrl, label: 'Team', apiKey: liveKey });
    const total = 400;
    const path = join(dataDir, 'slow.csv');
    await writeFile(
      path,
      `email\n${Array.from({ length: total }, (_, i) => `valid${i}@one-host.example`).join('\n')}\n`,
    );
    const created = await call<JobOverview>(runtime, 'jobs:create', { file: { kind: 'path', path } });
    expect(created.cost).toMatchObject({ mode: 'live', checks: total, covered: true });
    await call(runtime, 'jobs:start', { jobId: created.jobId });
    await waitFor(
      async () => (await call<JobOverview>(runtime, 'jobs:get', { jobId: created.jobId })).progress.checked >= 100,
      20_000,
    );
    const canceled = await call<JobOverview>(runtime, 'jobs:cancel', { jobId: created.jobId });
    expect(canceled.phase).toBe('canceled');
    expect(canceled.summary?.unverified).toBeGreaterThan(0);

    // 1,000 credits and 100 free checks cover the few hundred left.
    const retried = await runtime.dispatch('jobs:retry', { jobId: created.jobId }, { transport: 'ipc' });
    expect(retried).toMatchObject({ ok: true });
    const done = await waitFor(async () => {
      const job = await call<JobOverview>(runtime, 'jobs:get', { jobId: created.jobId });
      return job.phase === 'done' && job;
    }, 40_000);
    expect(done.summary).toMatchObject({ to_check: total, valid: total, unverified: 0, billed: total });
    expect((await hosted.dashboard.account()).balance).toBe(1000 - (total - 100));
  } finally {
    await runtime.close();
  }
}, 60_000);
