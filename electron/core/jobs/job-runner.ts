// Runs a job's checks to their end: plan the parts (each with its Idempotency-Key, before anything is
// sent), upload each part once, wait for each batch to end, and read its verdicts into the list. Killed
// at any moment, it resumes from what was committed: no row lost or doubled, no batch created twice, no
// credit spent twice.
import { randomBytes } from 'node:crypto';
import { rm } from 'node:fs/promises';
import { ServiceClientError } from '../client/client-errors.ts';
import { realClock, type Clock } from '../client/clock.ts';
import type { ServiceClient } from '../client/service-client.ts';
import { BufferedFileWriter, csvLineWriter } from '../lists/csv-writer.ts';
import { supersededStatus } from './list-store-parts.ts';
import { batchStatuses, endStatuses } from '../wire/assumptions.ts';
import { completeStatus } from '../wire/spec.ts';
import type { AddressIndex } from '../email/address-index.ts';
import { displayNameOf, type JobRecord, type JobStore } from './job-store.ts';
import type { ListStore, Part } from './list-store.ts';
import { readPartResults } from './part-results.ts';

export type JobProgress = { phase: 'importing'; rows: number } | { phase: 'verifying'; checked: number; total: number };

export type RunOptions = {
  signal?: AbortSignal;
  onProgress?: (progress: JobProgress) => void;
  /** How often a running batch's status is asked. */
  pollIntervalMs?: number;
  /** Give up (resumably) when a batch makes no progress for this long. */
  stallTimeoutMs?: number;
  clock?: Clock;
};

type RunClient = Pick<ServiceClient, 'uploadFile' | 'getBatch' | 'downloadCsv' | 'getResultsPage'>;

const partFile = (store: JobStore, job: JobRecord, part: Part) => `${store.listPath(job.id)}.part-${part.part}.csv`;

/** The part's addresses as a CSV file, made the same byte for byte every time, so a re-sent upload replays. */
async function writePartFile(list: ListStore, part: Part, path: string): Promise<void> {
  const writer = await BufferedFileWriter.create(path);
  const line = csvLineWriter(',');
  try {
    writer.write('email\r\n');
    for (const addresses of list.sendableAddresses(part)) {
      let text = '';
      for (const address of addresses) text += `${line([address])}\r\n`;
      await writer.write(text);
    }
    await writer.close();
  } catch (error) {
    await writer.discard();
    throw error;
  }
}

async function submitParts(store: JobStore, job: JobRecord, client: RunClient, signal?: AbortSignal): Promise<void> {
  const list = store.list(job.id);
  const parts = list.planParts(
    job.settings.addressesPerBatch,
    (part) => `sift-${job.id}-part-${part}-${randomBytes(6).toString('hex')}`,
    job.settings.sendLimit,
  );
  if (job.phase === 'imported') store.setPhase(job.id, 'submitting');
  for (const part of parts) {
    if (part.batchId) continue;
    signal?.throwIfAborted();
    const path = partFile(store, job, part);
    await writePartFile(list, part, path);
    const name = `${displayNameOf(job)}${parts.length > 1 ? ` (${part.part + 1}/${parts.length})` : ''}`;
    try {
      // The key was stored before this call: after a crash the same upload replays the same batch.
      const batch = await client.uploadFile(path, { name, idempotencyKey: part.idempotencyKey, signal });
      list.setPartBatch(part.part, batch.id);
    } finally {
      await rm(path, { force: true });
    }
  }
}

/** Waits for a part's batch to end, reporting how many of its addresses the service has checked. */
async function waitForEnd(
  client: RunClient,
  part: Part,
  options: RunOptions & { onChecked(checked: number): void },
): Promise<string> {
  const clock = options.clock ?? realClock;
  const stallTimeoutMs = options.stallTimeoutMs ?? 30 * 60_000;
  let last = { checked: -1, status: '', at: clock.now() };
  for (;;) {
    const batch = await client.getBatch(part.batchId!, { signal: options.signal });
    const summary = batch.summary;
    const checked = summary ? summary.valid + summary.invalid + summary.catch_all + summary.unknown : 0;
    if (checked !== last.checked || batch.status !== last.status) {
      last = { checked, status: batch.status, at: clock.now() };
      options.onChecked(Math.min(checked, part.addresses));
    }
    // Any status not known to be an end is still working.
    if (batch.status === completeStatus || endStatuses.includes(batch.status)) return batch.status;
    if (clock.now() - last.at > stallTimeoutMs) {
      throw new ServiceClientError(
        'stalled',
        `Batch ${part.batchId} made no progress for ${Math.round(stallTimeoutMs / 60_000)} minutes (status "${batch.status}").`,
      );
    }
    await clock.sleep(options.pollIntervalMs ?? 500, options.signal);
  }
}

export async function runJob(
  store: JobStore,
  job: JobRecord,
  client: RunClient,
  index: AddressIndex,
  options: RunOptions = {},
): Promise<JobRecord> {
  const list = store.list(job.id);
  await submitParts(store, job, client, options.signal);
  store.setPhase(job.id, 'reading');
  // Parts set aside by a retry count with what they checked; the parts sent now count as they go.
  const allParts = list.parts();
  const parts = allParts.filter((part) => part.status !== supersededStatus);
  const setAside =
    parts.length === allParts.length
      ? 0
      : list.checkedCount() - parts.reduce((sum, part) => sum + (part.resultsIn ? part.addresses : 0), 0);
  const total = setAside + parts.reduce((sum, part) => sum + part.addresses, 0);
  const checkedByPart = new Map(parts.map((part) => [part.part, part.resultsIn ? part.addresses : 0]));
  const report = () => {
    const checked = setAside + [...checkedByPart.values()].reduce((sum, value) => sum + value, 0);
    store.setChecked(job.id, checked);
    options.onProgress?.({ phase: 'verifying', checked, total });
  };
  report();
  await Promise.all(
    parts
      .filter((part) => !part.resultsIn)
      .map(async (part) => {
        const onChecked = (checked: number) => {
          checkedByPart.set(part.part, checked);
          report();
        };
        const status = await waitForEnd(client, part, { ...options, onChecked });
        list.setPartStatus(part.part, status);
        await readPartResults(list, index, client, part, { file: `${partFile(store, job, part)}.results`, ...options });
      }),
  );
  // Every verdict is in: the exact count replaces what the batches' status said along the way.
  store.setChecked(job.id, list.checkedCount());
  options.onProgress?.({ phase: 'verifying', checked: list.checkedCount(), total });
  const statuses = list
    .parts()
    .map((part) => part.status)
    .filter((status) => status !== supersededStatus);
  if (statuses.every((status) => status === completeStatus)) store.setPhase(job.id, 'done');
  else if (statuses.includes(batchStatuses.failed)) {
    store.setPhase(
      job.id,
      'failed',
      'The service could not finish part of the list; nothing was charged for the addresses it did not check.',
    );
  } else store.setPhase(job.id, 'canceled', 'Checking was canceled; what was checked is kept.');
  return store.getJob(job.id)!;
}

/** Cancels the job's running batches at the service; a running job then reads what was checked and ends. */
export async function cancelJob(
  store: JobStore,
  job: JobRecord,
  client: Pick<ServiceClient, 'cancelBatch'>,
): Promise<void> {
  for (const part of store.list(job.id).parts()) {
    if (!part.batchId || part.status !== 'running') continue;
    try {
      await client.cancelBatch(part.batchId, { idempotencyKey: `${part.idempotencyKey}-cancel` });
    } catch (error) {
      // Already ended: nothing to cancel.
      if (!(error instanceof ServiceClientError && error.kind === 'conflict')) throw error;
    }
  }
}

/** Sends again, in new parts with new keys, what a canceled or failed job left unchecked; answers how many. */
export function planRetry(store: JobStore, job: JobRecord): number {
  const planned = store
    .list(job.id)
    .planRetry(
      job.settings.addressesPerBatch,
      (part) => `sift-${job.id}-part-${part}-${randomBytes(6).toString('hex')}`,
    );
  if (planned > 0) store.setPhase(job.id, 'submitting');
  return planned;
}
