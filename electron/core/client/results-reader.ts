// Reads a batch's results page by page while it runs, exactly as the spec asks: follow next_cursor,
// loop on has_more (not on an empty page), and finish only when the status is `complete` and has_more
// is false. Each page comes with the cursor to resume from, for the caller to persist with its rows.
import { endStatuses } from '../wire/assumptions.ts';
import { completeStatus, type ResultRow } from '../wire/spec.ts';
import { ServiceClientError } from './client-errors.ts';
import { realClock, type Clock } from './clock.ts';
import { pollPace } from './poll-pace.ts';
import type { BatchStatus, ServiceClient } from './service-client.ts';

export type ResultsChunk = {
  rows: ResultRow[];
  /** Where to resume after these rows (persist it in the same transaction as the rows). */
  cursor: string | null;
  /** Rows already read past `cursor` (when the service gave no next cursor); skip that many on resume. */
  skip: number;
};

export type ReadResultsOptions = {
  cursor?: string | null;
  skip?: number;
  limit?: number;
  filter?: string;
  /** Wait between reads once caught up with a running batch. */
  pollIntervalMs?: number;
  /** At most one status call per this interval while caught up; status is otherwise asked only to confirm the end. */
  statusEveryMs?: number;
  /** Give up when no new row and no status change has come for this long. */
  stallTimeoutMs?: number;
  clock?: Clock;
  signal?: AbortSignal;
  /** Each batch status asked along the way (its estimate, where the service gives one). */
  onStatus?: (status: BatchStatus) => void;
};

export async function* readResults(
  client: Pick<ServiceClient, 'getResultsPage' | 'getBatch'>,
  batchId: string,
  options: ReadResultsOptions = {},
): AsyncGenerator<ResultsChunk, BatchStatus> {
  const clock = options.clock ?? realClock;
  const nextWait = pollPace(options.pollIntervalMs ?? 1000);
  const statusEveryMs = options.statusEveryMs ?? 5000;
  const stallTimeoutMs = options.stallTimeoutMs ?? 30 * 60_000;
  let cursor = options.cursor ?? null;
  let skip = options.skip ?? 0;
  let lastStatusAt = Number.NEGATIVE_INFINITY;
  let lastStatus = '';
  let lastProgressAt = clock.now();

  // The end state as known before a page was asked for: a has_more false read after that is final.
  let ended: BatchStatus | undefined;
  for (;;) {
    const endedBeforePage = ended;
    const page = await client.getResultsPage(batchId, {
      cursor,
      limit: options.limit,
      filter: options.filter,
      signal: options.signal,
    });
    // Rows before `skip` were read last time from this same cursor.
    const fresh = page.data.slice(skip);
    if (page.next_cursor !== null) {
      cursor = page.next_cursor;
      skip = 0;
    } else {
      skip += fresh.length;
    }
    if (fresh.length > 0) lastProgressAt = clock.now();
    yield { rows: fresh, cursor, skip };

    if (page.has_more && page.data.length > 0) continue;
    if (!page.has_more && endedBeforePage) return endedBeforePage;
    if (!page.has_more || clock.now() - lastStatusAt >= statusEveryMs) {
      const status = await client.getBatch(batchId, { signal: options.signal });
      options.onStatus?.(status);
      lastStatusAt = clock.now();
      if (status.status !== lastStatus) {
        lastStatus = status.status;
        lastProgressAt = clock.now();
      }
      // Complete (or, by assumption, failed or canceled): read on until a page asked for after this says has_more false.
      // Rows written between the last page and this status call are not lost that way.
      if (status.status === completeStatus || endStatuses.includes(status.status)) {
        ended = status;
        continue;
      }
      // Any status we do not know counts as still working.
    }
    if (clock.now() - lastProgressAt > stallTimeoutMs) {
      throw new ServiceClientError(
        'stalled',
        `Batch ${batchId} made no progress for ${Math.round(stallTimeoutMs / 1000)} s (status "${lastStatus}").`,
      );
    }
    await clock.sleep(nextWait(), options.signal);
  }
}
