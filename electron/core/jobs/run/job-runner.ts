// Runs a job's checks to their end: learn what the service offers, send each part once
// (part-submission.ts), then read each batch's verdicts into the list: page by page as it runs, or in one
// download after it ended where the service offers that. Killed at any moment, it resumes from what was
// committed: no row lost or doubled, no batch created twice, no credit spent twice.
import { ServiceClientError } from '../../client/client-errors.ts';
import { realClock, type Clock } from '../../client/clock.ts';
import { pollPace } from '../../client/poll-pace.ts';
import type { Reach } from '../../client/reach-store.ts';
import { shortcutsOf, isNotHere } from '../../client/service-reach.ts';
import type { ServiceClient } from '../../client/service-client.ts';
import { isActivePart, type JobRecord, type JobStore, type ListStore, type Part } from '../store/index.ts';
import { batchStatuses, endStatuses, type BatchEstimate, type BatchObject } from '../../wire/assumptions.ts';
import { completeStatus } from '../../wire/spec.ts';
import type { AddressIndex } from '../../email/address-index.ts';
import { downloadPartResults, pagePartResults } from './part-results.ts';
import { partFile, partKeyFor, planJobParts, submitParts, type SubmitProgress } from './part-submission.ts';
import { createEta } from './progress-eta.ts';
import { politePaceOf, type PolitePace } from '../../../common/durations.ts';

export type JobProgress =
  | { phase: 'importing'; rows: number }
  /** `parts`: while parts are still being sent, how many of them were. */
  | {
      phase: 'verifying';
      checked: number;
      total: number;
      etaSeconds?: number;
      /** `etaSeconds` is the service's politeness bound (Sift's own, live), and where most of it goes. */
      politePace?: PolitePace;
      parts?: SubmitProgress;
    };

export type RunOptions = {
  signal?: AbortSignal;
  onProgress?: (progress: JobProgress) => void;
  /** How often a running batch's status is asked. */
  pollIntervalMs?: number;
  /** Give up (resumably) when a batch makes no progress for this long. */
  stallTimeoutMs?: number;
  clock?: Clock;
};

type RunClient = Pick<
  ServiceClient,
  'uploadFile' | 'createBatch' | 'getBatch' | 'downloadCsv' | 'getResultsPage' | 'getAccount'
>;

/** Waits for a part's batch to end, reporting how many of its addresses the service has checked. */
async function waitForEnd(
  client: RunClient,
  part: Part,
  options: RunOptions & { onChecked(checked: number): void; onStatus(status: BatchObject): void },
): Promise<string> {
  const clock = options.clock ?? realClock;
  const stallTimeoutMs = options.stallTimeoutMs ?? 30 * 60_000;
  let last = { checked: -1, status: '', at: clock.now() };
  const nextWait = pollPace(options.pollIntervalMs ?? 500);
  for (;;) {
    const batch = await client.getBatch(part.batchId!, { signal: options.signal });
    options.onStatus(batch);
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
    await clock.sleep(nextWait(), options.signal);
  }
}

/**
 * What the service offers now, from its account (Sift's own service names its shortcuts there). When the
 * account cannot be read, what was learned before stands; the calls that follow will say what is wrong.
 */
async function learnReach(client: RunClient, reach: Reach, signal?: AbortSignal): Promise<void> {
  try {
    reach.learnShortcuts(shortcutsOf(await client.getAccount({ signal })));
  } catch (error) {
    if (signal?.aborted) throw error;
  }
}

/** Reads one part's verdicts: the download where the service offers it, else (or when it is not there) page by page. */
async function readPart(
  store: JobStore,
  job: JobRecord,
  client: RunClient,
  index: AddressIndex,
  reach: Reach,
  part: Part,
  options: RunOptions & { onChecked(checked: number): void; onPage(): void; onStatus(status: BatchObject): void },
): Promise<string> {
  const list = store.list(job.id);
  if (reach.current().resultsCsv) {
    const status = await waitForEnd(client, part, options);
    try {
      await downloadPartResults(
        list,
        index,
        client,
        part,
        { file: `${partFile(store, job, part)}.results`, endStatus: status },
        options.signal,
      );
      return status;
    } catch (error) {
      if (!isNotHere(error)) throw error;
      reach.forgetShortcut('resultsCsv');
    }
  }
  return pagePartResults(list, index, client, part, options);
}

/**
 * A part read to its end whose end status never landed (an older Sift wrote the two apart, and a crash
 * came between): its batch is asked how it ended, so the job does not read as canceled.
 */
async function settleReadParts(list: ListStore, client: RunClient, signal?: AbortSignal): Promise<void> {
  for (const part of list.parts()) {
    if (!isActivePart(part) || !part.resultsIn || !part.batchId || endStatuses.includes(part.status)) continue;
    list.setPartStatus(part.part, (await client.getBatch(part.batchId, { signal })).status);
  }
}

export async function runJob(
  store: JobStore,
  job: JobRecord,
  client: RunClient,
  index: AddressIndex,
  reach: Reach,
  options: RunOptions = {},
): Promise<JobRecord> {
  const list = store.list(job.id);
  await learnReach(client, reach, options.signal);
  planJobParts(store, job);
  await settleReadParts(list, client, options.signal);
  // Parts set aside by a retry count with what they checked; the parts sent now count as they go. A part
  // split later hands on exactly its addresses, so the total holds.
  const allParts = list.parts();
  const parts = allParts.filter(isActivePart);
  const setAside =
    parts.length === allParts.length
      ? 0
      : list.checkedCount() - parts.reduce((sum, part) => sum + (part.resultsIn ? part.addresses : 0), 0);
  const total = setAside + parts.reduce((sum, part) => sum + part.addresses, 0);
  // What the batches' status says was checked, where it says (a service may send no summary).
  const checkedByPart = new Map(parts.map((part) => [part.part, part.resultsIn ? part.addresses : 0]));
  const eta = createEta(options.clock ?? realClock);
  /** What each part's batch last said of its time left at a polite pace (Sift's own service, live keys). */
  const estimates = new Map<number, BatchEstimate>();
  let sending: SubmitProgress | undefined;
  const report = () => {
    // Rows read back and what the status says are both lower bounds: the larger is the progress.
    const said = setAside + [...checkedByPart.values()].reduce((sum, value) => sum + value, 0);
    const checked = Math.min(total, Math.max(said, list.checkedCount()));
    store.setChecked(job.id, checked);
    const parts = sending ? { parts: sending } : {};
    // The service's bound where it gives one (the batches share the mail servers: the last to finish
    // says), else the pace seen in this run.
    const polite = [...estimates.values()].sort((a, b) => b.seconds_left - a.seconds_left)[0];
    const timing = polite
      ? { etaSeconds: Math.ceil(polite.seconds_left), politePace: politePaceOf(polite) }
      : { etaSeconds: eta(checked, total) };
    options.onProgress?.({ phase: 'verifying', checked, total, ...timing, ...parts });
  };
  const onStatus = (part: Part) => (status: BatchObject) => {
    const before = estimates.get(part.part)?.seconds_left;
    if (status.estimate) estimates.set(part.part, status.estimate);
    else estimates.delete(part.part);
    // The pace changed (a server slowed us down, or let us go faster): said at once.
    if (status.estimate?.seconds_left !== before) report();
  };
  report();

  // Parts are read as soon as they are sent, while the next ones are sent: the service checks the first
  // batches meanwhile. A failure on either side stops the other, and the job resumes from what was kept.
  const stop = new AbortController();
  const signal = options.signal ? AbortSignal.any([options.signal, stop.signal]) : stop.signal;
  let wake = () => {};
  const partSent = () =>
    new Promise<void>((resolve) => {
      wake = resolve;
      signal.addEventListener('abort', () => resolve(), { once: true });
    });
  let allSent = false;
  const send = submitParts(store, job, client, reach, {
    signal,
    onProgress: (progress) => {
      sending = progress;
      report();
      wake();
    },
  }).then(() => {
    allSent = true;
    sending = undefined;
    store.setPhase(job.id, 'reading');
    wake();
  });
  const read = (async () => {
    // One part at a time, in order: the status budget is not split many ways.
    for (;;) {
      signal.throwIfAborted();
      const next = list.parts().find((part) => isActivePart(part) && !part.resultsIn);
      if (!next) return;
      if (!next.batchId) {
        if (allSent) return; // nothing sent for it: the next run sends it
        await partSent();
        continue;
      }
      const onChecked = (checked: number) => {
        checkedByPart.set(next.part, checked);
        report();
      };
      const status = await readPart(store, job, client, index, reach, next, {
        ...options,
        signal,
        onChecked,
        onPage: report,
        onStatus: onStatus(next),
      });
      estimates.delete(next.part);
      list.setPartStatus(next.part, status);
    }
  })();
  const stopOnFailure = (error: unknown) => {
    stop.abort(error);
    throw error;
  };
  // The first failure is the one told; the other side's stop is its consequence.
  const [sent, readAll] = await Promise.allSettled([send.catch(stopOnFailure), read.catch(stopOnFailure)]);
  for (const outcome of [sent, readAll]) if (outcome.status === 'rejected') throw firstFailure(stop, outcome.reason);

  return endRun(store, job, total, options);
}

/**
 * Ends a run whose every verdict is in: the exact count replaces what the batches' status said along the
 * way, and the phase follows their statuses. A job with no part (nothing was for a service: `needsService`)
 * ends here without one.
 */
export function endRun(store: JobStore, job: JobRecord, total: number, options: RunOptions = {}): JobRecord {
  const list = store.list(job.id);
  store.setChecked(job.id, list.checkedCount());
  options.onProgress?.({ phase: 'verifying', checked: list.checkedCount(), total, etaSeconds: 0 });
  const statuses = list
    .parts()
    .filter(isActivePart)
    .map((part) => part.status);
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

/** The failure that stopped the run: the one given to `stop`, not the abort it caused on the other side. */
const firstFailure = (stop: AbortController, reason: unknown): unknown =>
  stop.signal.aborted ? stop.signal.reason : reason;

/** Cancels the job's running batches at the service; a running job then reads what was checked and ends. */
export async function cancelJob(
  store: JobStore,
  job: JobRecord,
  client: Pick<ServiceClient, 'cancelBatch'>,
): Promise<void> {
  // What was not sent yet never will be: the job ends with what its batches checked.
  store.list(job.id).setAsideUnsent();
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
  const planned = store.list(job.id).planRetry(job.settings.addressesPerBatch, partKeyFor(job));
  if (planned > 0) store.setPhase(job.id, 'submitting');
  return planned;
}
