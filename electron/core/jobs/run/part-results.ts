// Reads the verdicts of a part's batch into the job's list: page by page as the spec shows, resuming from
// the cursor kept with each page, or, where the service offers it, as one CSV download once the batch ended
// (a million rows would take a thousand pages). Both are safe to repeat: a verdict already recorded is
// never written twice.
import { rm } from 'node:fs/promises';
import { ServiceClientError } from '../../client/client-errors.ts';
import { readResults } from '../../client/results-reader.ts';
import type { ServiceClient } from '../../client/service-client.ts';
import { readCsvRows } from '../../lists/csv-reader.ts';
import { resultsPageLimits, type ResultRow } from '../../wire/spec.ts';
import type { BatchObject } from '../../wire/assumptions.ts';
import type { Clock } from '../../client/clock.ts';
import type { AddressIndex } from '../../email/address-index.ts';
import { keyCheck } from '../import/index.ts';
import type { ListStore, Part, VerdictRow } from '../store/index.ts';

const rowsPerCommit = 20_000;

type ResultsClient = Pick<ServiceClient, 'downloadCsv' | 'getResultsPage' | 'getBatch'>;
type PageOptions = {
  signal?: AbortSignal;
  pollIntervalMs?: number;
  stallTimeoutMs?: number;
  clock?: Clock;
  /** After each page is committed. */
  onPage?: () => void;
  /** Each status of the batch asked along the way. */
  onStatus?: (status: BatchObject) => void;
};

/** The address key a result row names; a download may guard one that starts like a formula with a leading '. */
const keysOfRow = (email: string): [string, string | undefined] => {
  const key = email.trim().toLowerCase();
  return [key, key.startsWith("'") ? key.slice(1) : undefined];
};

/**
 * The addresses a part was sent with, in the order sent: Sift's own service lists results in that order, in
 * a download and page by page, so each row is almost always the next of them, confirmed by its key without
 * a search. A service that lists them otherwise (its own order, a resumed cursor) gets each row looked up.
 */
function sentOrder(list: ListStore, part: Part) {
  const ranges = list.sentKeys(part);
  let sent: [number, string][] = [];
  let at = 0;
  /** The next address sent, reading on to the next range of ids when one runs out. */
  const next = (): [number, string] | undefined => {
    while (at === sent.length) {
      const range = ranges.next();
      if (range.done) return undefined;
      sent = range.value;
      at = 0;
    }
    return sent[at];
  };
  return {
    /** The id of the next address sent when the row names it (guarded or not), moving on past it. */
    idOf(email: string): number | undefined {
      const expected = next();
      const [key, unguarded] = keysOfRow(email);
      if (expected === undefined || (expected[1] !== key && expected[1] !== unguarded)) return undefined;
      at += 1;
      return expected[0];
    },
    /** Moves on past `id`, found out of order: a row the service left out, say, leaves the rest in order. */
    skipPast(id: number) {
      for (let expected = next(); expected !== undefined && expected[0] <= id; expected = next()) at += 1;
    },
  };
}

/** The verdicts of rows in the order the part was sent; rows out of that order are looked up instead. */
function toVerdictsInOrder(
  list: ListStore,
  index: AddressIndex,
  order: ReturnType<typeof sentOrder>,
  rows: readonly ResultRow[],
): VerdictRow[] {
  const verdicts: VerdictRow[] = [];
  const outOfOrder: ResultRow[] = [];
  for (const row of rows) {
    const id = order.idOf(row.email);
    if (id === undefined) outOfOrder.push(row);
    else verdicts.push(verdictOf(id, row, true));
  }
  if (outOfOrder.length === 0) return verdicts;
  const found = toVerdicts(list, index, outOfOrder);
  order.skipPast(found.reduce((last, verdict) => Math.max(last, verdict.id), 0));
  return verdicts.concat(found);
}

const verdictOf = (id: number, row: ResultRow, sentPending = false): VerdictRow => ({
  id,
  result: row.result,
  billed: row.billed,
  reason: typeof row.reason === 'string' ? row.reason : null,
  provider: typeof row.provider === 'string' && row.provider !== '' ? row.provider : null,
  sentPending,
});

function toVerdicts(list: ListStore, index: AddressIndex, rows: readonly ResultRow[]): VerdictRow[] {
  // Fingerprint candidates first, then their stored keys in one query: one lookup per page, not per row.
  const anyCandidate = () => true;
  const rowKeys: string[] = new Array(rows.length);
  const rowCandidates: (number | undefined)[] = new Array(rows.length);
  const candidates: number[] = [];
  for (let i = 0; i < rows.length; i += 1) {
    const [key, unguarded] = keysOfRow(rows[i]!.email);
    rowKeys[i] = key;
    rowCandidates[i] = index.find(key, anyCandidate);
    if (rowCandidates[i] !== undefined) candidates.push(rowCandidates[i]!);
    const other = unguarded === undefined ? undefined : index.find(unguarded, anyCandidate);
    if (other !== undefined) candidates.push(other);
  }
  const storedKeys = list.keysOf(candidates);
  const sameKey = keyCheck(list, storedKeys);
  const verdicts: VerdictRow[] = [];
  for (let i = 0; i < rows.length; i += 1) {
    const row = rows[i]!;
    const key = rowKeys[i]!;
    const candidate = rowCandidates[i];
    // Almost always the first candidate is the address; a fingerprint shared by two keys, or a guarded
    // key, takes the full search.
    let id = candidate !== undefined && storedKeys.get(candidate) === key ? candidate : undefined;
    if (id === undefined) {
      const unguarded = keysOfRow(row.email)[1];
      // An address the job never sent (a service's own addition) has no row to land on.
      id = index.find(key, sameKey) ?? (unguarded === undefined ? undefined : index.find(unguarded, sameKey));
      if (id === undefined) continue;
    }
    verdicts.push(verdictOf(id, row));
  }
  return verdicts;
}

async function readDownloadedCsv(
  list: ListStore,
  index: AddressIndex,
  part: Part,
  path: string,
  endStatus: string,
): Promise<void> {
  let at: Record<'email' | 'result' | 'billed' | 'reason' | 'provider', number> | null = null;
  let batch: ResultRow[] = [];
  const order = sentOrder(list, part);
  await readCsvRows(path, 'results', (cells) => {
    if (!at) {
      const columns = new Map(cells.map((name, position) => [name.trim().toLowerCase(), position]));
      if (!columns.has('email') || !columns.has('result')) {
        throw new ServiceClientError('protocol', 'The results download has no email and result columns.');
      }
      // A column the download lacks reads as -1: no cell.
      const position = (name: string) => columns.get(name) ?? -1;
      at = {
        email: position('email'),
        result: position('result'),
        billed: position('billed'),
        reason: position('reason'),
        provider: position('provider'),
      };
      return;
    }
    const reason = cells[at.reason];
    const provider = cells[at.provider];
    batch.push({
      email: cells[at.email] ?? '',
      result: cells[at.result] ?? '',
      billed: cells[at.billed] === 'true',
      ...(reason ? { reason } : {}),
      ...(provider ? { provider } : {}),
    });
    if (batch.length === rowsPerCommit) {
      list.recordResults(part.part, toVerdictsInOrder(list, index, order, batch), {});
      batch = [];
    }
  });
  list.recordResults(part.part, toVerdictsInOrder(list, index, order, batch), { resultsIn: true, endStatus });
}

/** The whole batch as one CSV download (a shortcut: only where the service offers it), after it ended with `endStatus`. */
export async function downloadPartResults(
  list: ListStore,
  index: AddressIndex,
  client: ResultsClient,
  part: Part,
  download: { file: string; endStatus: string },
  signal?: AbortSignal,
): Promise<void> {
  await client.downloadCsv(part.batchId!, download.file, { signal });
  try {
    await readDownloadedCsv(list, index, part, download.file, download.endStatus);
  } finally {
    await rm(download.file, { force: true });
  }
}

/**
 * The spec's way: cursor pages of 1,000 while the batch runs, each committed with the cursor to resume from,
 * until the status is an end and a page asked after it says has_more false. Answers the batch's end status.
 */
export async function pagePartResults(
  list: ListStore,
  index: AddressIndex,
  client: ResultsClient,
  part: Part,
  options: PageOptions,
): Promise<string> {
  const pages = readResults(client, part.batchId!, {
    cursor: part.cursor,
    skip: part.skip,
    limit: resultsPageLimits.max,
    signal: options.signal,
    pollIntervalMs: options.pollIntervalMs ?? 500,
    stallTimeoutMs: options.stallTimeoutMs,
    clock: options.clock,
    ...(options.onStatus ? { onStatus: options.onStatus } : {}),
  });
  const order = sentOrder(list, part);
  for (let step = await pages.next(); ; step = await pages.next()) {
    if (step.done) {
      list.recordResults(part.part, [], { resultsIn: true, endStatus: step.value.status });
      return step.value.status;
    }
    const page = step.value;
    const verdicts = toVerdictsInOrder(list, index, order, page.rows);
    list.recordResults(part.part, verdicts, { cursor: page.cursor, skip: page.skip });
    options.onPage?.();
  }
}
