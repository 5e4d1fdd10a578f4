// A do-not-mail list from a file, as people keep them: a CSV, TSV or Excel workbook (an ESP's unsubscribe
// export, say: its address column is found as a list's is, else its first column; a workbook's first
// sheet), or text with one address or domain per line. Read as a stream and handed on in batches, so a list of millions never sits in memory.
import { extname } from 'node:path';
import { AppError } from '../../common/app-error.ts';
import { detectLayout } from '../lists/email-column.ts';
import { readCsvRows } from '../lists/csv-reader.ts';
import { openDecodedText, readHead, sniffEncoding } from '../lists/text-decoding.ts';
import { isWorkbookFile, readXlsxRows } from '../lists/xlsx-reader.ts';
import { isRefused, parseSuppressionEntry, type RefusedEntry, type SuppressionEntry } from './suppression-entries.ts';

/** Entries handed on at once. */
const batchSize = 10_000;
/** Refused lines kept to show (the rest are counted). */
const refusedShown = 10;

export type SuppressionFileRead = { entries: number; refused: number; refusedExamples: RefusedEntry[] };

/** Reads a CSV, TSV or text file of addresses and domains, calling `onBatch` with each batch of entries. */
export async function readSuppressionFile(
  path: string,
  displayName: string,
  onBatch: (entries: SuppressionEntry[]) => void,
): Promise<SuppressionFileRead> {
  const read: SuppressionFileRead = { entries: 0, refused: 0, refusedExamples: [] };
  let batch: SuppressionEntry[] = [];
  let first = true;
  const take = (cell: string) => {
    const parsed = parseSuppressionEntry(cell);
    const header = first;
    first = false;
    if (isRefused(parsed)) {
      // A first line that is neither is the file's header; an empty cell is nothing to report.
      if (header || parsed.reason === 'empty') return;
      read.refused += 1;
      if (read.refusedExamples.length < refusedShown) read.refusedExamples.push(parsed);
      return;
    }
    batch.push(parsed);
    read.entries += 1;
    if (batch.length === batchSize) {
      onBatch(batch);
      batch = [];
    }
  };
  if (await isWorkbookFile(path)) {
    const rows = (onRow: (row: string[]) => boolean | void) => readXlsxRows(path, displayName, onRow);
    await readColumn(rows, displayName, take);
  } else if (extname(displayName).toLowerCase() === '.txt') await readLines(path, displayName, take);
  else await readColumn((onRow) => readCsvRows(path, displayName, onRow), displayName, take);
  if (batch.length > 0) onBatch(batch);
  if (read.entries === 0 && read.refused === 0)
    throw new AppError('unreadable_file', `"${displayName}" holds no address or domain.`);
  return read;
}

/** The longest line of a text file read here (an address or a domain is at most 254 characters). */
const maxTextLineChars = 64 * 1024;

/** The file's lines, each handed on; a line past `maxTextLineChars` stops the read (a file of one huge line). */
async function readLines(path: string, displayName: string, take: (cell: string) => void): Promise<void> {
  const sniff = sniffEncoding(await readHead(path));
  let pending = '';
  let lineNumber = 0;
  const tooLong = () =>
    new AppError(
      'unreadable_file',
      `Line ${(lineNumber + 1).toLocaleString('en')} of "${displayName}" is longer than 64 KB: it is not a list of addresses or domains.`,
    );
  for await (const chunk of openDecodedText(path, sniff)) {
    const lines = `${pending}${chunk as string}`.split('\n');
    pending = lines.pop()!;
    for (const line of lines) {
      if (line.length > maxTextLineChars) throw tooLong();
      lineNumber += 1;
      take(line.endsWith('\r') ? line.slice(0, -1) : line);
    }
    if (pending.length > maxTextLineChars) throw tooLong();
  }
  if (pending !== '') take(pending.endsWith('\r') ? pending.slice(0, -1) : pending);
}

/** Reads a file's rows, from the first, as often as asked. */
type RowSource = (onRow: (row: string[]) => boolean | void) => Promise<unknown>;

/** The column of addresses (found as a list's is), or the first column of a list of domains. */
async function readColumn(rows: RowSource, displayName: string, take: (cell: string) => void): Promise<void> {
  const sample: string[][] = [];
  await rows((row) => {
    sample.push(row);
    if (sample.length >= 200) return false;
  });
  let column = 0;
  try {
    column = detectLayout(sample, displayName).columnIndex;
  } catch {
    // No column of addresses: a list of domains, read from its first column.
  }
  await rows((row) => take(row[column] ?? ''));
}
