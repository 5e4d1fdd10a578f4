// Writes a job's outputs, streaming, with the input's columns, header, order and delimiter kept:
//   <name>.cleaned.csv    rows whose verdict is in the chosen set, each address once (first occurrence)
//   <name>.annotated.csv  every input row plus sift_* columns
//   <name>.summary.json   the spec's batch-summary counters plus submitted and unique
// Each file is written under a temporary name and renamed when complete.
import { createWriteStream, type WriteStream } from 'node:fs';
import { rename, rm, writeFile } from 'node:fs/promises';
import { basename, extname, join } from 'node:path';
import Papa from 'papaparse';
import { readCsvRows } from '../lists/csv-reader.ts';
import { neutraliseFormula } from '../lists/formula-guard.ts';
import { sql } from '../storage/sqlite.ts';
import { namedResults } from '../wire/spec.ts';
import { displayNameOf, type JobRecord, type JobStore } from './job-store.ts';

export const annotationColumns = [
  'sift_result',
  'sift_billed',
  'sift_duplicate',
  'sift_role',
  'sift_disposable',
  'sift_reason',
  'sift_suggestion',
] as const;

export type ListSummary = {
  submitted: number;
  unique: number;
  valid: number;
  invalid: number;
  catch_all: number;
  unknown: number;
  duplicates: number;
  role: number;
  disposable: number;
  billed: number;
  /** Rows whose email cell was empty. */
  no_address: number;
  /** Verdicts the spec does not name, counted as they came. */
  other_results: Record<string, number>;
  /** Addresses not verified (the job was canceled or failed first). */
  unverified: number;
};

export type ExportResult = { cleanedPath: string; annotatedPath: string; summaryPath: string; summary: ListSummary };

type RowInfo = {
  row_index: number;
  status: 'ok' | 'syntax' | 'no_address';
  first: number;
  suggestion: string | null;
  result: string | null;
  billed: number | null;
  reason: string | null;
  role: number | null;
  disposable: number | null;
};

export function summarise(store: JobStore, jobId: string): ListSummary {
  const db = store.db;
  const rows = sql(
    db,
    "SELECT COUNT(*) FILTER (WHERE status <> 'no_address') AS submitted, COUNT(*) FILTER (WHERE status = 'no_address') AS no_address FROM job_rows WHERE job_id = ?",
  ).get(jobId) as {
    submitted: number;
    no_address: number;
  };
  const totals = sql(
    db,
    'SELECT COUNT(*) AS unique_count, SUM(role) AS role, SUM(disposable) AS disposable, SUM(billed) AS billed FROM job_addresses WHERE job_id = ?',
  ).get(jobId) as {
    unique_count: number;
    role: number | null;
    disposable: number | null;
    billed: number | null;
  };
  const byResult = sql(db, 'SELECT result, COUNT(*) AS n FROM job_addresses WHERE job_id = ? GROUP BY result').all(
    jobId,
  ) as { result: string | null; n: number }[];
  const summary: ListSummary = {
    submitted: rows.submitted,
    unique: totals.unique_count,
    valid: 0,
    invalid: 0,
    catch_all: 0,
    unknown: 0,
    duplicates: rows.submitted - totals.unique_count,
    role: totals.role ?? 0,
    disposable: totals.disposable ?? 0,
    billed: totals.billed ?? 0,
    no_address: rows.no_address,
    other_results: {},
    unverified: 0,
  };
  for (const { result, n } of byResult) {
    if (result === null) summary.unverified += n;
    else if ((namedResults as readonly string[]).includes(result))
      summary[result as (typeof namedResults)[number]] += n;
    else summary.other_results[result] = n;
  }
  return summary;
}

function verdictOf(info: RowInfo): { result: string; billed: boolean; reason: string } {
  if (info.status === 'no_address') return { result: 'invalid', billed: false, reason: 'no_address' };
  if (info.status === 'syntax') return { result: 'invalid', billed: false, reason: 'syntax' };
  return { result: info.result ?? 'unverified', billed: info.billed === 1, reason: info.reason ?? '' };
}

async function writeChunk(stream: WriteStream, text: string): Promise<void> {
  if (text && !stream.write(text)) await new Promise<void>((resolve) => stream.once('drain', () => resolve()));
}

async function closeStream(stream: WriteStream): Promise<void> {
  await new Promise<void>((resolve, reject) =>
    stream.end((error?: Error | null) => (error ? reject(error) : resolve())),
  );
}

export async function exportJob(store: JobStore, job: JobRecord, outDir: string): Promise<ExportResult> {
  const source = displayNameOf(job);
  const name = basename(source, extname(source));
  const cleanedPath = join(outDir, `${name}.cleaned.csv`);
  const annotatedPath = join(outDir, `${name}.annotated.csv`);
  const summaryPath = join(outDir, `${name}.summary.json`);
  const partial = (path: string) => `${path}.partial`;
  const keep = new Set(job.settings.keep);
  const cell = job.settings.neutraliseFormulas ? neutraliseFormula : (value: string) => value;
  const unparse = (rows: string[][]) =>
    rows.length === 0 ? '' : `${Papa.unparse(rows, { delimiter: job.delimiter, newline: '\r\n' })}\r\n`;

  const cleaned = createWriteStream(partial(cleanedPath));
  const annotated = createWriteStream(partial(annotatedPath));
  try {
    const bom = job.settings.bom ? '\uFEFF' : '';
    // job.headers names every column, made up as column_N when the input has no header row.
    const annotatedHeader = [...job.headers, ...annotationColumns];
    await writeChunk(cleaned, bom + (job.hasHeader ? unparse([job.headers.map(cell)]) : ''));
    await writeChunk(annotated, bom + unparse([annotatedHeader.map(cell)]));

    const page = sql(
      store.db,
      `SELECT r.row_index, r.status, r.first, r.suggestion, a.result, a.billed, a.reason, a.role, a.disposable
       FROM job_rows r LEFT JOIN job_addresses a ON a.job_id = r.job_id AND a.key = r.address_key
       WHERE r.job_id = ? AND r.row_index > ? ORDER BY r.row_index LIMIT 2000`,
    );
    let infos: RowInfo[] = [];
    let next = 0;
    let lastIndex = 0;
    let cleanedRows: string[][] = [];
    let annotatedRows: string[][] = [];
    const flush = async () => {
      const [a, b] = [unparse(cleanedRows), unparse(annotatedRows)];
      cleanedRows = [];
      annotatedRows = [];
      await Promise.all([writeChunk(cleaned, a), writeChunk(annotated, b)]);
    };

    await readCsvRows(
      job.inputPath,
      basename(job.inputPath),
      (row) => {
        if (next >= infos.length) {
          infos = page.all(job.id, lastIndex) as RowInfo[];
          next = 0;
        }
        const info = infos[next++];
        if (!info) throw new Error(`The input has more rows than when it was imported (row ${lastIndex + 1}).`);
        lastIndex = info.row_index;
        const verdict = verdictOf(info);
        const duplicate = info.status !== 'no_address' && info.first === 0;
        const padded =
          row.length < job.headers.length ? [...row, ...Array<string>(job.headers.length - row.length).fill('')] : row;
        if (keep.has(verdict.result) && !duplicate) cleanedRows.push(row.map(cell));
        annotatedRows.push(
          [
            ...padded,
            verdict.result,
            // A credit is spent once per address: on its first row, not on its duplicates.
            String(verdict.billed && !duplicate),
            String(duplicate),
            String(info.role === 1),
            String(info.disposable === 1),
            verdict.reason,
            info.suggestion ?? '',
          ].map(cell),
        );
        if (annotatedRows.length >= 500) return flush();
      },
      { delimiter: job.delimiter, skipFirstRow: job.hasHeader },
    );
    await flush();
    if (lastIndex !== job.rowsTotal)
      throw new Error(`The input has ${lastIndex} rows now, but ${job.rowsTotal} when it was imported.`);
    await Promise.all([closeStream(cleaned), closeStream(annotated)]);
    const summary = summarise(store, job.id);
    await writeFile(partial(summaryPath), `${JSON.stringify(summary, null, 2)}\n`);
    for (const path of [cleanedPath, annotatedPath, summaryPath]) await rename(partial(path), path);
    return { cleanedPath, annotatedPath, summaryPath, summary };
  } catch (error) {
    cleaned.destroy();
    annotated.destroy();
    for (const path of [cleanedPath, annotatedPath, summaryPath]) await rm(partial(path), { force: true });
    throw error;
  }
}
