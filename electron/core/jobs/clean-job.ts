// Runs a job to its end: import, plan batches (keys first), create them (safe to repeat), and read
// results into the job page by page. Killed at any moment, it resumes from what was committed:
// no row lost or doubled, no batch created twice, no credit spent twice.
import { readResults } from '../client/results-reader.ts';
import type { ServiceClient } from '../client/service-client.ts';
import { ServiceClientError } from '../client/client-errors.ts';
import { batchStatuses } from '../wire/assumptions.ts';
import { completeStatus } from '../wire/spec.ts';
import { importList } from './list-import.ts';
import { displayNameOf, type JobRecord, type JobStore } from './job-store.ts';

export type JobProgress = { phase: 'importing'; rows: number } | { phase: 'verifying'; checked: number; total: number };

export type Cost = {
  checks: number;
  mode: 'live' | 'sandbox';
  freeRemaining?: number;
  balance?: number;
  /** False only when the account says it cannot pay for these checks. */
  covered: boolean;
};

type RunOptions = { signal?: AbortSignal; onProgress?: (progress: JobProgress) => void; pollIntervalMs?: number };

export async function prepareJob(store: JobStore, job: JobRecord, options: RunOptions = {}): Promise<JobRecord> {
  if (job.phase !== 'importing') return job;
  return importList(store, job, (rows) => options.onProgress?.({ phase: 'importing', rows }));
}

/** What verifying the job's remaining addresses will cost, before anything is sent. */
export async function estimateCost(
  store: JobStore,
  job: JobRecord,
  client: Pick<ServiceClient, 'getAccount' | 'mode'>,
  signal?: AbortSignal,
): Promise<Cost> {
  const unsent = store.batches(job.id).length === 0;
  const checks = unsent ? store.counts(job.id).addresses : 0;
  if (client.mode === 'sandbox') return { checks, mode: 'sandbox', covered: true };
  const account = await client.getAccount({ signal });
  const available = (account.free_remaining ?? 0) + (account.balance ?? 0);
  const known = account.free_remaining !== undefined || account.balance !== undefined;
  return {
    checks,
    mode: 'live',
    freeRemaining: account.free_remaining,
    balance: account.balance,
    covered: !known || available >= checks,
  };
}

export async function runJob(
  store: JobStore,
  job: JobRecord,
  client: ServiceClient,
  options: RunOptions = {},
): Promise<JobRecord> {
  const { signal } = options;
  let parts = store.planBatches(job.id, job.settings.maxBatchSize);
  for (const part of parts) {
    if (part.batchId) continue;
    signal?.throwIfAborted();
    const emails = store.addressesForPart(job.id, part);
    const name = `${displayNameOf(job)}${parts.length > 1 ? ` (${part.part + 1}/${parts.length})` : ''}`;
    // The key was stored before this call: after a crash the same request replays the same batch.
    const batch = await client.createBatch({ name, emails }, { idempotencyKey: part.idempotencyKey, signal });
    store.setBatchId(job.id, part.part, batch.id);
  }
  store.setPhase(job.id, 'reading');
  parts = store.batches(job.id);
  const total = store.counts(job.id).addresses;
  const report = () => options.onProgress?.({ phase: 'verifying', checked: store.counts(job.id).checked, total });
  report();

  await Promise.all(
    parts
      .filter((part) => part.status === 'running' || part.status === 'pending')
      .map(async (part) => {
        const reader = readResults(client, part.batchId!, {
          cursor: part.cursor,
          skip: part.skip,
          limit: 1000,
          signal,
          pollIntervalMs: options.pollIntervalMs ?? 500,
          statusEveryMs: 2000,
        });
        for (;;) {
          const next = await reader.next();
          if (next.done) {
            store.setBatchStatus(job.id, part.part, next.value.status);
            return;
          }
          store.recordResults(job.id, part.part, next.value.rows, next.value.cursor, next.value.skip);
          if (next.value.rows.length > 0) report();
        }
      }),
  );

  const statuses = store.batches(job.id).map((part) => part.status);
  if (statuses.every((status) => status === completeStatus)) store.setPhase(job.id, 'done');
  else if (statuses.includes(batchStatuses.failed))
    store.setPhase(job.id, 'failed', 'The service gave up on a batch; its credits were refunded.');
  else store.setPhase(job.id, 'canceled', 'A batch was canceled; what was verified is kept.');
  return store.getJob(job.id)!;
}

/** Cancels the job's running batches at the service; the verified rows stay with the job. */
export async function cancelJob(store: JobStore, job: JobRecord, client: ServiceClient): Promise<void> {
  for (const part of store.batches(job.id)) {
    if (!part.batchId || part.status !== 'running') continue;
    try {
      await client.cancelBatch(part.batchId, { idempotencyKey: `${part.idempotencyKey}-cancel` });
    } catch (error) {
      // Already ended: nothing to cancel.
      if (!(error instanceof ServiceClientError && error.kind === 'conflict')) throw error;
    }
  }
}
