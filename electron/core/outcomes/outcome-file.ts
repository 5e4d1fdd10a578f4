// A bounce or suppression export from any sending service (a CSV, TSV or workbook): the address column is
// found as a list's is; the bounce's type, date and words by their headers, as services name them (Amazon
// SES's bounceType "Permanent"/"Transient", SendGrid's and Postmark's "type"/"created", Mailgun's "code" and
// "error"). Read as a stream and kept a page at a time; a row Sift cannot read is counted and shown, never
// guessed at.
import { statSync } from 'node:fs';
import { AppError } from '../../common/app-error.ts';
import { precheckAddress } from '../email/address-precheck.ts';
import { readCsvRows } from '../lists/csv-reader.ts';
import { detectLayout } from '../lists/email-column.ts';
import { isWorkbookFile, readXlsxRows } from '../lists/xlsx-reader.ts';
import { senderRefusalReasons } from '../../common/reason-words.ts';
import { bounceMeaning } from './bounce-meaning.ts';
import type { OutcomeStore } from './outcome-store.ts';
import { outcomeRecorder, type ReadOutcome } from './record-outcomes.ts';

const pageRows = 5_000;

type FileKind = 'hard' | 'soft';
const examplesShown = 10;

/** `sender`: hard bounces whose words blame the sender, kept as refused (never put on the do-not-mail list). */
export type FileImport = {
  rows: number;
  hard: number;
  soft: number;
  sender: number;
  other: number;
  refused: number;
  suppressed: number;
  examples: string[];
  datedBy: 'column' | 'file';
};

const header = (cell: string) =>
  cell
    .trim()
    .toLowerCase()
    .replace(/[\s_-]+/g, '');
/**
 * The column that says hard or soft, in the order they are taken: a type's name first, then a status or a
 * reply code (Mailgun's bounce list is `address,code,error,created_at`, its code the server's reply:
 * https://documentation.mailgun.com/docs/mailgun/api-reference/send/mailgun/bounces).
 */
const typeHeaders = [
  ...['type', 'bouncetype', 'bounce', 'kind', 'event', 'category', 'bouncecategory'],
  ...['suppressionreason', 'status', 'code', 'errorcode', 'bouncecode', 'smtpcode'],
];
const dateHeaders = new Set([
  'date',
  'created',
  'createdat',
  'timestamp',
  'time',
  'bouncedat',
  'bouncedate',
  'when',
  'eventdate',
  'lastupdatetime',
]);
const wordsHeaders = new Set([
  'reason',
  'description',
  'diagnostic',
  'diagnosticcode',
  'message',
  'error',
  'bouncereason',
  'response',
  'details',
  'smtpresponse',
]);

/**
 * What a type cell says: a hard or soft bounce, or something that is not one (a complaint, an unsubscribe).
 * Mailgun's 605 is a send it dropped as "previously bounced": the address is on its bounce list, which holds
 * only permanent failures (https://github.com/mailgun/documentation, source/api-suppressions.rst).
 */
function kindOfType(cell: string): FileKind | undefined {
  const word = header(cell);
  if (/^(hard|hardbounce|permanent|bounce|bounced|hardbounced|undetermined|5\d\d|5\.\d+\.\d+|605)$/.test(word))
    return 'hard';
  if (/^(soft|softbounce|transient|temporary|deferred|softbounced|4\d\d|4\.\d+\.\d+)$/.test(word)) return 'soft';
  return undefined;
}

/** An RFC 3463 code standing alone ("5.1.1", "smtp; 550 5.1.1 …"), not part of an IP address or a version. */
const enhancedCode = /(?:^|[\s;:([])([245]\.\d{1,3}\.\d{1,3})(?=$|[\s;:,)\]])/;

/** The status a row gives: its type cell when that is a code (SendGrid's `status`), else the first in the words. */
const statusOf = (typeCell: string, words: string) =>
  enhancedCode.exec(typeCell.trim())?.[1] ?? enhancedCode.exec(words)?.[1];

function dateOf(cell: string): number | undefined {
  const text = cell.trim();
  if (/^\d{10}$/.test(text)) return Number(text) * 1000;
  if (/^\d{13}$/.test(text)) return Number(text);
  const parsed = Date.parse(text);
  return Number.isFinite(parsed) ? parsed : undefined;
}

/** The sample's cells of a column, below its header. */
const cellsOf = (sample: string[][], column: number, hasHeader: boolean) =>
  sample
    .slice(hasHeader ? 1 : 0)
    .map((row) => (row[column] ?? '').trim())
    .filter(Boolean);

const saysAKind = (cells: string[]) => cells.some((cell) => kindOfType(cell) !== undefined);

/**
 * Which columns hold the kind, the day and the server's words (-1: none), by their names and the sample.
 * Of the columns named as a kind's, the first whose cells say one (a suppression list's `status` may say
 * only whether the entry is active); else a "reason" of one word a row, some of them a kind (Amazon SES's
 * suppression list: EmailAddress, Reason BOUNCE or COMPLAINT, LastUpdateTime); else the first so named.
 */
function columnsOf(layout: { headers: string[]; hasHeader: boolean }, sample: string[][]) {
  const headers = layout.headers.map(header);
  const find = (names: Set<string>) => headers.findIndex((name) => names.has(name));
  const [dateColumn, wordsColumn] = [find(dateHeaders), find(wordsHeaders)];
  const named = typeHeaders.map((name) => headers.indexOf(name)).filter((column) => column >= 0);
  const saying = named.find((column) => saysAKind(cellsOf(sample, column, layout.hasHeader)));
  if (saying !== undefined) return { typeColumn: saying, dateColumn, wordsColumn };
  const reasons = wordsColumn >= 0 ? cellsOf(sample, wordsColumn, layout.hasHeader) : [];
  if (saysAKind(reasons) && reasons.every((cell) => /^[A-Za-z_-]{1,24}$/.test(cell)))
    return { typeColumn: wordsColumn, dateColumn, wordsColumn: -1 };
  return { typeColumn: named[0] ?? -1, dateColumn, wordsColumn };
}

export async function importOutcomeFile(
  dataDir: string,
  store: OutcomeStore,
  /** The source's name: made only once the file is found to be one Sift can read. */
  sourceName: string,
  path: string,
  displayName: string,
  options: { kind?: FileKind } = {},
): Promise<FileImport> {
  const workbook = await isWorkbookFile(path);
  const rows = (onRow: (row: string[], place: number) => boolean | void) =>
    workbook ? readXlsxRows(path, displayName, onRow) : readCsvRows(path, displayName, onRow);
  const sample: string[][] = [];
  await rows((row) => {
    sample.push(row);
    if (sample.length >= 200) return false;
  });
  const layout = detectLayout(sample, displayName);
  const { typeColumn, dateColumn, wordsColumn } = columnsOf(layout, sample);
  if (typeColumn < 0 && options.kind === undefined)
    throw new AppError(
      'bad_request',
      `"${displayName}" has no column that says which bounces were hard and which soft (a "type" or "bounce type"). Say what all its rows are with --kind hard or --kind soft.`,
    );
  const fileTime = Math.floor(statSync(path).mtimeMs);
  const existing = store.source(sourceName);
  if (existing && existing.kind !== 'file')
    throw new AppError(
      'bad_request',
      `"${sourceName}" is a ${existing.kind} source: name the file's source otherwise.`,
    );
  const source = existing ?? store.ensureSource(sourceName, 'file');
  const result: FileImport = {
    rows: 0,
    hard: 0,
    soft: 0,
    sender: 0,
    other: 0,
    refused: 0,
    suppressed: 0,
    examples: [],
    datedBy: dateColumn >= 0 ? 'column' : 'file',
  };
  let page: ReadOutcome[] = [];
  const recorder = outcomeRecorder(dataDir, store);
  const flush = () => {
    const recorded = recorder.record(source, { outcomes: page });
    result.suppressed += recorded.suppressed;
    page = [];
  };
  const refuse = (row: number, why: string) => {
    result.refused += 1;
    if (result.examples.length < examplesShown) result.examples.push(`row ${row.toLocaleString('en')}: ${why}`);
  };
  try {
    let headerToCome = layout.hasHeader;
    // A row is named by its place in the file, as the person's spreadsheet numbers it (blank lines counted).
    await rows((row, place) => {
      if (headerToCome) return void (headerToCome = false);
      result.rows += 1;
      const check = precheckAddress(row[layout.columnIndex] ?? '');
      if (!check.ok) return refuse(place, 'not an address');
      const kind = typeColumn >= 0 ? kindOfType(row[typeColumn] ?? '') : options.kind;
      if (kind === undefined) {
        result.other += 1;
        return;
      }
      const at = dateColumn >= 0 ? dateOf(row[dateColumn] ?? '') : fileTime;
      if (at === undefined) return refuse(place, `"${(row[dateColumn] ?? '').slice(0, 40)}" is not a date`);
      const words = wordsColumn >= 0 ? (row[wordsColumn] ?? '').replace(/\s+/g, ' ').trim().slice(0, 500) : '';
      const status = statusOf(typeColumn >= 0 ? (row[typeColumn] ?? '') : '', words);
      // The service's own words, read as the live engine reads a reply: a "hard" bounce that blames the sender
      // (a blocklist, the content) says nothing about the mailbox.
      const meaning = words ? bounceMeaning({ action: 'failed', diagnostic: words }) : undefined;
      if (kind === 'hard' && meaning && senderRefusalReasons.has(meaning.reason)) {
        page.push({
          address: check.key,
          kind: 'refused',
          reason: meaning.reason,
          ...(status ? { status } : {}),
          words,
          at,
        });
        result.sender += 1;
      } else {
        page.push({
          address: check.key,
          kind,
          reason: kind === 'hard' ? 'bounced' : 'soft_bounce',
          ...(status ? { status } : {}),
          ...(words ? { words } : {}),
          at,
        });
        result[kind] += 1;
      }
      if (page.length >= pageRows) flush();
    });
    flush();
  } finally {
    recorder.close();
  }
  return result;
}
