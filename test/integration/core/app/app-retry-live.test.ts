// Retry of a canceled list on a hosted service with a live key, through the real dispatch: what is left to
// check must be covered by the account as far as it says (nothing new is planned to pay for, but the
// unchecked addresses will be). A balance that covers them, or a service that does not say its balance
// (the spec shows no field of /account), lets the retry go on; the list ends done, each address billed once.
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { JobOverview } from '../../../../electron/common/contract.ts';
import { createAppRuntime } from '../../../../electron/core/app/app-runtime.ts';
import type { VerificationService } from '../../../../electron/core/service/verification-service.ts';
import { appCaller } from '../../../support/app-call.ts';
import { startFaultProxy } from '../../../support/fault-proxy.ts';
import { startTestService, waitFor } from '../../../support/service-harness.ts';

const call = appCaller('ipc');
let hosted: VerificationService;
let liveKey: string;

beforeAll(async () => {
  // One mail host, probed slowly: the list is still being checked when it is canceled.
  hosted = await startTestService({ probesPerSecondPerHost: 100 });
  liveKey = (await hosted.dashboard.createKey('live', 'retry')).key;
  await hosted.dashboard.topUp(3000);
});
afterAll(() => hosted.close());

const total = 400;

/**
 * Cleans a list at `baseUrl`, cancels it mid-way, and retries it (after `beforeRetry`): the list ends done,
 * or with `refused`, the retry is refused with that message and the list stays canceled.
 */
async function cancelThenRetry(
  baseUrl: string,
  name: string,
  { beforeRetry = () => {}, refused }: { beforeRetry?: () => void; refused?: string } = {},
) {
  const dataDir = await mkdtemp(join(tmpdir(), 'sift-retry-live-'));
  const runtime = await createAppRuntime({ dataDir, appVersion: '1.0.0' });
  try {
    await call(runtime, 'settings:saveHosted', { baseUrl, label: 'Team', apiKey: liveKey });
    const path = join(dataDir, `${name}.csv`);
    const addresses = Array.from({ length: total }, (_, i) => `valid.${name}${i}@one-host.example`);
    await writeFile(path, `email\n${addresses.join('\n')}\n`);
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

    beforeRetry();
    const retried = await runtime.dispatch('jobs:retry', { jobId: created.jobId }, { transport: 'ipc' });
    if (refused) {
      expect(retried).toMatchObject({ ok: false, error: { message: expect.stringContaining(refused) } });
      const job = await call<JobOverview>(runtime, 'jobs:get', { jobId: created.jobId });
      expect(job).toMatchObject({ phase: 'canceled', summary: { unverified: canceled.summary?.unverified } });
      return;
    }
    expect(retried).toMatchObject({ ok: true });
    const done = await waitFor(async () => {
      const job = await call<JobOverview>(runtime, 'jobs:get', { jobId: created.jobId });
      return job.phase === 'done' && job;
    }, 40_000);
    expect(done.summary).toMatchObject({ to_check: total, valid: total, unverified: 0, billed: total });
  } finally {
    await runtime.close();
  }
}

it('checks the rest of a canceled live list when the balance covers it', async () => {
  await cancelThenRetry(hosted.baseUrl, 'a');
  // 100 free checks, then the rest from the 3,000 credits: nothing billed twice.
  expect((await hosted.dashboard.account()).balance).toBe(3000 - (total - 100));
}, 60_000);

it('checks the rest when the service does not say its balance', async () => {
  const quiet = await startFaultProxy(hosted.baseUrl, (request) =>
    request.url.endsWith('/account')
      ? {
          kind: 'rewrite',
          rewrite: (answer) => {
            const { balance: _balance, free_remaining: _free, ...rest } = JSON.parse(answer.body.toString());
            return { ...answer, body: Buffer.from(JSON.stringify(rest)) };
          },
        }
      : { kind: 'forward' },
  );
  try {
    await cancelThenRetry(quiet.baseUrl, 'b');
  } finally {
    await quiet.close();
  }
}, 60_000);

it('refuses to check the rest when the account says it cannot pay for it', async () => {
  let broke = false;
  const emptied = await startFaultProxy(hosted.baseUrl, (request) =>
    broke && request.url.endsWith('/account')
      ? {
          kind: 'rewrite',
          rewrite: (answer) => {
            const account = { ...JSON.parse(answer.body.toString()), balance: 0, free_remaining: 0 };
            return { ...answer, body: Buffer.from(JSON.stringify(account)) };
          },
        }
      : { kind: 'forward' },
  );
  try {
    await cancelThenRetry(emptied.baseUrl, 'c', {
      beforeRetry: () => (broke = true),
      refused: 'needs more credits than the account has',
    });
  } finally {
    await emptied.close();
  }
}, 60_000);
