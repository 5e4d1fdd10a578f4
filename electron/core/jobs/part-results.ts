// Reads the verdicts of a part whose batch has ended into the job's list. The CSV download brings a
// whole batch in one request (a million rows would take a thousand pages, and the service's read budget
// with them); a service without it is read page by page, resuming from the cursor kept with each page.
// Both are safe to repeat: a verdict already recorded is never written twice.
import { rm } from 'node:fs/promises';
import { ServiceClientError } from '../client/client-errors.ts';
import { readResults } from '../client/results-reader.ts';
import type { ServiceClient } from '../client/service-client.ts';
import { readCsvRows } from '../lists/csv-reader.ts';
import type { ResultRow } from '../wire/spec.ts';
import type { AddressIndex } from '../email/address-index.ts';
import { keyCheck } from './list-import.ts';
import type { ListStore, Part, VerdictRow } from './list-store.ts';

const rowsPerCommit = 20_000;

type ResultsClient = Pick<ServiceClient, 'downloadCsv' | 'getResultsPage' | 'getBatch'>;
type ReadOptions = { file: string; signal?: AbortSignal; pollIntervalMs?: number };

/** The address key a result row names; a download may guard one that starts like a formula with a leading '. */
const keysOfRow = (email: string): [string, string | undefined] => {
  const key = email.trim().toLowerCase();
  return [key, key.startsWith("'") ? key.slice(1) : undefined];
};

function toVerdicts(list: ListStore, index: AddressIndex, rows: readonly ResultRow[]): VerdictRow[] {
  // Fingerprint candidates first, then their stored keys in one query: one lookup per page, not per row.
  const anyCandidate = () => true;
  const candidates: number[] = [];
  for (const row of rows) {
    for (const key of keysOfRow(row.email)) {
      const id = key === undefined ? undefined : index.find(key, anyCandidate);
      if (id !== undefined) candidates.push(id);
    }
  }
  const sameKey = keyCheck(list, list.keysOf(candidates));
  const verdicts: VerdictRow[] = [];
  for (const row of rows) {
    // An address the job never sent (a service's own addition) has no row to land on.
    const [key, unguarded] = keysOfRow(row.email);
    const id = index.find(key, sameKey) ?? (unguarded === undefined ? undefined : index.find(unguarded, sameKey));
    if (id === undefined) continue;
    const reason = typeof row.reason === 'string' ? row.reason : null;
    const provider = typeof row.provider === 'string' && row.provider !== '' ? row.provider : null;
    verdicts.push({ id, result: row.result, billed: row.billed, reason, provider });
  }
  return verdicts;
}

async function readDownloadedCsv(list: ListStore, index: AddressIndex, part: Part, path: string): Promise<void> {
  let columns: Map<string, number> | null = null;
  let batch: ResultRow[] = [];
  await readCsvRows(path, 'results', (cells) => {
    if (!columns) {
      columns = new Map(cells.map((name, position) => [name.trim().toLowerCase(), position]));
      if (!columns.has('email') || !columns.has('result')) {
        throw new ServiceClientError('protocol', 'The results download has no email and result columns.');
      }
      return;
    }
    const at = (name: string) => cells[columns!.get(name) ?? -1];
    const reason = at('reason');
    const provider = at('provider');
    batch.push({
      email: at('email') ?? '',
      result: at('result') ?? '',
      billed: at('billed') === 'true',
      ...(reason ? { reason } : {}),
      ...(provider ? { provider } : {}),
    });
    if (batch.length === rowsPerCommit) {
      list.recordResults(part.part, toVerdicts(list, index, batch), {});
      batch = [];
    }
  });
  list.recordResults(part.part, toVerdicts(list, index, batch), { resultsIn: true });
}

export async function readPartResults(
  list: ListStore,
  index: AddressIndex,
  client: ResultsClient,
  part: Part,
  options: ReadOptions,
): Promise<void> {
  try {
    await client.downloadCsv(part.batchId!, options.file, { signal: options.signal });
    try {
      await readDownloadedCsv(list, index, part, options.file);
    } finally {
      await rm(options.file, { force: true });
    }
    return;
  } catch (error) {
    const unsupported = error instanceof ServiceClientError && (error.status === 404 || error.status === 405);
    if (!unsupported) throw error;
  }
  const pages = readResults(client, part.batchId!, {
    cursor: part.cursor,
    skip: part.skip,
    limit: 1000,
    signal: options.signal,
    pollIntervalMs: options.pollIntervalMs ?? 500,
  });
  for await (const page of pages) {
    list.recordResults(part.part, toVerdicts(list, index, page.rows), { cursor: page.cursor, skip: page.skip });
  }
  list.recordResults(part.part, [], { resultsIn: true });
}
