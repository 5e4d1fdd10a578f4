// Reads a list into its job, streaming: layout from the first rows, then every row pre-checked and
// stored, a chunk of rows at a time. Each distinct address gets an id in order of first appearance,
// found through an address index, so a repeat costs no random write. The chunks are stored on a thread
// of their own (import-writer.ts) while this one reads on. Nothing is sent or billed here; an import cut
// short by a crash starts over from the file.
import { createHash } from 'node:crypto';
import type { RuleMatcher } from '../../rules/index.ts';
import { stat } from 'node:fs/promises';
import { basename } from 'node:path';
import { AppError } from '../../../common/app-error.ts';
import type { PrecheckCounts } from '../../../common/contract.ts';
import { precheckAddress } from '../../email/address-precheck.ts';
import { cellText, readCsvByteRows } from '../../lists/csv-byte-rows.ts';
import { readCsvRows } from '../../lists/csv-reader.ts';
import { detectLayout, layoutSampleRows, type ListLayout } from '../../lists/email-column.ts';
import { createAddressIndex, type AddressIndex } from '../../email/address-index.ts';
import { displayNameOf, rowsPerChunk, type JobRecord, type JobStore, type ListStore } from '../store/index.ts';
import { createChunkPacker } from './import-chunks.ts';
import { startImportWriter } from './import-writer.ts';
import type { CacheAsk } from '../../cache/cache-lookup.ts';
import type { SuppressionMatcher } from '../../suppression/suppression-matcher.ts';
import { isWorkbookFile } from '../../lists/xlsx-reader.ts';
import { copySheetAsCsv } from '../../lists/sheet-copy.ts';

/**
 * A guess of rows from the file's size, so the index seldom grows while it fills. On the high side of a
 * marketing export's row: an index sized for twice the rows holds twice the memory for the whole import,
 * where growing once costs a moment.
 */
const bytesPerRowGuess = 128;
const progressEveryMs = 250;

const emptyCounts = (): PrecheckCounts => ({
  toCheck: 0,
  duplicates: 0,
  badSyntax: 0,
  noAddress: 0,
  role: 0,
  disposable: 0,
  suggestions: 0,
  suppressed: 0,
});

async function detectListLayout(
  path: string,
  column?: string,
  displayName = basename(path),
): Promise<ListLayout & { delimiter: string }> {
  const sample: string[][] = [];
  const { delimiter } = await readCsvRows(path, displayName, (row) => {
    sample.push(row);
    if (sample.length >= layoutSampleRows) return false;
  });
  return { ...detectLayout(sample, displayName, column), delimiter };
}

/** Whether the address stored (or about to be) under an id is `key`: how a fingerprint match is confirmed. */
export function keyCheck(list: ListStore, pending: Pick<ReadonlyMap<number, string>, 'get'> = new Map()) {
  return (id: number, key: string) => {
    const known = pending.get(id) ?? list.keyOf(id);
    // Every id in an index was given to an address: one found nowhere would become a second id, billed twice.
    if (known === undefined) throw new Error(`Address ${id} is in the index but neither stored nor pending.`);
    return known === key;
  };
}

/** The index of a job's addresses, rebuilt from its list (after a restart, say). */
export function loadAddressIndex(list: ListStore): AddressIndex {
  const index = createAddressIndex();
  for (const { id, key } of list.keys()) index.add(key, id);
  return index;
}

/**
 * The CSV a list's rows are read from: the input itself, or for a workbook, its sheet (the one chosen, else
 * its first) copied as CSV now, with the sheet's name kept in the job's settings.
 */
async function rowsOf(store: JobStore, job: JobRecord): Promise<string> {
  const workbook = await isWorkbookFile(job.inputPath);
  const displayName = displayNameOf(job);
  const sheet = workbook
    ? (await copySheetAsCsv(job.inputPath, store.sheetCopyPath(job.id), displayName, job.settings.sheet)).sheet
    : undefined;
  if (sheet !== job.settings.sheet) {
    const { sheet: _read, ...settings } = job.settings;
    store.updateSettings(job.id, sheet === undefined ? settings : { ...settings, sheet });
  }
  return store.rowsPath(store.getJob(job.id)!);
}

export type ImportOptions = {
  onProgress?: (rows: number) => void;
  /** What the verdict cache is asked as the list is stored; none: everything is checked. */
  cache?: CacheAsk;
  /** The do-not-mail list (and its version): a new address on it is settled as suppressed, never sent. */
  suppression?: { matcher: SuppressionMatcher; version: number };
  /** A person's rules per domain (and their version): an address a rule decides is settled, never sent. */
  rules?: { matcher: RuleMatcher; version: number };
  /** Told, at the end, how many rows each rule's domain decided. */
  onRuled?: (rows: Record<string, number>) => void;
  /** Told once, as soon as the list is known to hold an address for the service to check. */
  onToSend?: () => void;
};

export async function importList(
  store: JobStore,
  job: JobRecord,
  { onProgress = () => {}, cache, suppression, rules, onRuled, onToSend }: ImportOptions = {},
): Promise<{ job: JobRecord; index: AddressIndex }> {
  const displayName = displayNameOf(job);
  const rowsPath = await rowsOf(store, job);
  const layout = await detectListLayout(rowsPath, job.settings.column, displayName);
  // A file without a header still gets names for its columns, for the annotated file and the column picker.
  const headers = layout.hasHeader ? layout.headers : Array.from({ length: layout.width }, (_, i) => `column_${i + 1}`);
  store.setLayout(job.id, { ...layout, headers });
  const list = store.list(job.id);
  list.clear();
  const { size } = await stat(rowsPath);
  let index = createAddressIndex(size / bytesPerRowGuess);
  let counts: PrecheckCounts = emptyCounts();
  let hash = createHash('sha256');
  let row = 0;
  let lastId = 0;
  let firstRowOfChunk = 1;
  let rowIds = new Int32Array(rowsPerChunk);
  let filled = 0;
  const packer = createChunkPacker();
  let writer = startImportWriter(store.listPath(job.id), cache, onToSend);
  // An empty do-not-mail list costs the rows nothing.
  const matcher = suppression?.matcher.empty === false ? suppression.matcher : undefined;
  const ruler = rules?.matcher.empty === false ? rules.matcher : undefined;
  let ruledRows: Record<string, number> = {};
  // The keys not yet stored: this chunk's, then those of chunks still on their way to the store.
  const pendingKeys = { get: (id: number) => packer.keyOf(id) ?? writer.keyOf(id) };
  let reportedAt = performance.now();
  const sameKey = keyCheck(list, pendingKeys);
  const nextId = () => ++lastId;

  const flush = () => {
    const written = writer.write(packer.take(firstRowOfChunk, rowIds.subarray(0, filled)));
    firstRowOfChunk = row + 1;
    rowIds = new Int32Array(rowsPerChunk);
    filled = 0;
    // The catalog commits durably, so it hears of progress a few times a second, not every chunk.
    if (performance.now() - reportedAt >= progressEveryMs) {
      reportedAt = performance.now();
      store.setImportedRows(job.id, row);
      onProgress(row);
    }
    return written;
  };

  /** Pre-checks one row's address cell and gives the row its address's id. */
  const addRow = (cell: string) => {
    row += 1;
    const check = precheckAddress(cell);
    if (!check.ok && check.reason === 'no_address') {
      counts.noAddress += 1;
      rowIds[filled++] = 0;
    } else {
      const key = check.key!;
      const { id, created } = index.idFor(key, sameKey, nextId);
      rowIds[filled++] = id;
      if (!check.ok) counts.badSyntax += 1;
      else if (!created) counts.duplicates += 1;
      // The do-not-mail list comes before any rule: an address on it is never kept, whatever a rule says.
      const suppressed = created && check.ok && matcher ? matcher.matches(key) : null;
      let rule = check.ok && ruler && !suppressed ? ruler.matches(key) : null;
      // A repeat row is the rule's too, unless its address is on the do-not-mail list.
      if (rule && !created && matcher?.matches(key)) rule = null;
      if (rule) ruledRows[rule.domain] = (ruledRows[rule.domain] ?? 0) + 1;
      if (created) {
        packer.add({
          id,
          key,
          // Bad syntax is stored as it was written, for the annotated file.
          address: check.ok ? check.address : key,
          firstRow: row,
          sendable: check.ok && !suppressed && !rule,
          role: check.ok && check.role,
          disposable: check.ok && check.disposable,
          suggestion: check.ok ? (check.suggestion ?? null) : null,
          ...(suppressed ? { suppressed } : {}),
          ...(rule ? { ruled: rule.action } : {}),
        });
        if (suppressed) counts.suppressed! += 1;
        else if (rule) counts.ruled = (counts.ruled ?? 0) + 1;
        else if (check.ok) {
          counts.toCheck += 1;
          if (check.role) counts.role += 1;
          if (check.disposable) counts.disposable += 1;
          if (check.suggestion) counts.suggestions += 1;
        }
      }
    }
    if (filled === rowsPerChunk) return flush();
  };

  try {
    const readOptions = { delimiter: layout.delimiter, skipFirstRow: layout.hasHeader };
    const { columnIndex } = layout;
    // Rows as bytes when the file is of the common shape; else from the start again, as text.
    const asBytes = await readCsvByteRows(rowsPath, (cells) => addRow(cellText(cells, columnIndex)), {
      ...readOptions,
      onBytes: (bytes) => hash.update(bytes),
    });
    if (!asBytes) {
      packer.clear();
      await writer.close(); // stored, then dropped below: the list is read again from its first row
      list.clear();
      writer = startImportWriter(store.listPath(job.id), cache, onToSend);
      index = createAddressIndex(size / bytesPerRowGuess);
      counts = emptyCounts();
      ruledRows = {};
      hash = createHash('sha256');
      [row, lastId, firstRowOfChunk, filled] = [0, 0, 1, 0];
      await readCsvRows(rowsPath, displayName, (cells) => addRow(cells[columnIndex] ?? ''), {
        ...readOptions,
        onBytes: (bytes) => hash.update(bytes),
      });
    }
    if (filled > 0) await flush();
    await writer.close();
  } catch (error) {
    await writer.abort();
    throw error;
  }
  if (row === 0) throw new AppError('unreadable_file', `"${displayName}" has no rows of data.`);
  // The verdicts the cache gave were counted as the writer stored them.
  const cached = store.list(job.id).counters().get('cached') ?? 0;
  const read = {
    ...counts,
    cached,
    ...(suppression ? { suppressionVersion: suppression.version } : {}),
    ...(rules ? { rulesVersion: rules.version } : {}),
  };
  onRuled?.(ruledRows);
  store.finishImport(job.id, { rowsTotal: row, precheck: read, contentHash: hash.digest('hex') });
  return { job: store.getJob(job.id)!, index };
}
