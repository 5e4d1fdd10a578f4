// Writes a job's outputs, streaming, with the input's columns, header, order and delimiter kept:
//   <name>.cleaned.csv    for re-import: rows whose verdict is kept and whose flags are not removed, each
//                         address once (first occurrence), cells as they were but the address normalised
//   <name>.annotated.csv  for reading in a spreadsheet: every row plus sift_* columns, formulas guarded
//   <name>.summary.json   the list's funnel (common/list-funnel.ts)
//   <name>.<status>.csv   when asked: one file per verdict and flag, in the cleaned list's form
// Demo verdicts (a sandbox key's) say so in every file's name (<name>.demo.cleaned.csv), in the annotated
// file's reasons and in the summary; never as an extra first line, which would break a re-import.
// Each file is written under a temporary name and renamed when complete, and only when the input is
// still the file that was checked: verdicts never land on rows that moved. Asked for workbooks
// (settings.format xlsx), each CSV is then copied into a .xlsx of its own, its cells as text.
import { access, constants, rename, rm, writeFile } from 'node:fs/promises';
import { basename, extname, join } from 'node:path';
import { createHash } from 'node:crypto';
import { AppError } from '../../../common/app-error.ts';
import type { ExportKind, ListSummary } from '../../../common/contract.ts';
import { readCsvByteRows } from '../../lists/csv-byte-rows.ts';
import { readCsvRows } from '../../lists/csv-reader.ts';
import { BufferedFileWriter, csvLineWriter, writeFailure } from '../../lists/csv-writer.ts';
import { neutraliseFormula } from '../../lists/formula-guard.ts';
import { writeCsvAsXlsx } from '../../lists/xlsx-writer.ts';
import { demoVerdictsNote } from '../../../common/demo-verdicts.ts';
import { displayNameOf, hasDemoVerdicts, type JobRecord, type JobStore } from '../store/index.ts';
import { annotationColumns } from './annotation.ts';
import { byteRowWriter, textRowWriter, type ScoreSpread, type WaitFor } from './export-rows.ts';
import { createRowVerdicts, type RowVerdict, type RowVerdicts } from './row-verdicts.ts';
import { summariseJob } from '../views/index.ts';

type ExportedFile = { kind: ExportKind; path: string };
export type ExportResult = {
  cleanedPath: string;
  annotatedPath: string;
  summaryPath: string;
  /** Every file written, the three above first. */
  files: ExportedFile[];
  summary: ListSummary;
};

/** The per-status files, in the order they are listed; a verdict file holds the addresses with it. */
const statusKinds = ['valid', 'invalid', 'catch_all', 'unknown', 'role', 'disposable', 'suppressed'] as const;
const fileSuffix = (kind: ExportKind) => kind.replace('_', '-');

function inputChanged(job: JobRecord, detail: string): AppError {
  return new AppError(
    'input_changed',
    `"${displayNameOf(job)}" changed since it was checked (${detail}). Sift will not put verdicts on rows that moved: ` +
      'restore the file, or clean it again.',
  );
}

/** Copies each written CSV (all but the summary) into a workbook, which takes its place in `paths`. */
async function asWorkbooks(
  paths: Map<ExportKind, string>,
  workbookOf: (kind: ExportKind) => string,
  options: { delimiter: string; displayName: string },
): Promise<void> {
  for (const [kind, path] of paths) {
    if (kind === 'summary') continue;
    const workbook = workbookOf(kind);
    await writeCsvAsXlsx(`${path}.partial`, `${workbook}.partial`, {
      ...options,
      sheetName: kind.replace('_', '-'),
    }).catch(async (error: unknown) => {
      await rm(`${workbook}.partial`, { force: true });
      throw error;
    });
    await rm(`${path}.partial`, { force: true });
    paths.set(kind, workbook);
  }
}

/** The summary file: the list's funnel, labelled as a demo's where its verdicts are. */
async function writeSummary(path: string, summary: ListSummary, demo: boolean): Promise<void> {
  const labelled = demo ? { demo: true, note: demoVerdictsNote, ...summary } : summary;
  await writeFile(path, `${JSON.stringify(labelled, null, 2)}\n`).catch((error: unknown) => {
    throw writeFailure(error, path.replace(/\.partial$/, ''));
  });
}

/**
 * The summary again, once the verdict cache has counted what changed since the last check (it does so
 * beside the export, so the export does not wait for it): rewritten in place when there is something new.
 */
export async function refreshSummary(store: JobStore, job: JobRecord, exported: ExportResult): Promise<ExportResult> {
  // The export's own counts (the scores' spread) stay: only the list's totals are read again.
  const summary: ListSummary = { ...exported.summary, ...summariseJob(store, job) };
  if (!summary.changed || exported.summary.changed) return exported;
  await writeSummary(`${exported.summaryPath}.partial`, summary, hasDemoVerdicts(job));
  await rename(`${exported.summaryPath}.partial`, exported.summaryPath);
  return { ...exported, summary };
}

/**
 * A finished job's files written as CSV into `outDir`, whatever format it chose (its own settings unchanged):
 * its annotated file and the scores its kept verdicts must reach, which a sync plans its write-back from.
 */
export async function annotatedCsvOf(store: JobStore, job: JobRecord, outDir: string) {
  const { annotatedPath } = await exportJob(store, { ...job, settings: { ...job.settings, format: 'csv' } }, outDir);
  return { path: annotatedPath, keepAtScore: job.settings.keepAtScore ?? {} };
}

export async function exportJob(store: JobStore, job: JobRecord, outDir: string): Promise<ExportResult> {
  const source = displayNameOf(job);
  const demo = hasDemoVerdicts(job);
  const name = `${basename(source, extname(source))}${demo ? '.demo' : ''}`;
  const kinds: ExportKind[] = ['cleaned', 'annotated', 'summary', ...(job.settings.perStatusFiles ? statusKinds : [])];
  const xlsx = job.settings.format === 'xlsx';
  const fileOf = (kind: ExportKind, extension: string) => join(outDir, `${name}.${fileSuffix(kind)}.${extension}`);
  // A tab-separated list's outputs keep its tabs, and say so in their names.
  const text = job.delimiter === '\t' ? 'tsv' : 'csv';
  const paths = new Map(kinds.map((kind) => [kind, fileOf(kind, kind === 'summary' ? 'json' : text)]));
  // A workbook's cells are text: no formula to guard, no byte-order mark to add.
  const settings = xlsx ? { ...job.settings, neutraliseFormulas: false, bom: false } : job.settings;
  const pathOf = (kind: ExportKind) => paths.get(kind)!;
  const partial = (path: string) => `${path}.partial`;
  await access(outDir, constants.W_OK).catch((error: unknown) => {
    throw writeFailure(error, pathOf('cleaned'));
  });
  const layout = {
    delimiter: job.delimiter,
    columnIndex: job.columnIndex,
    width: job.headers.length,
    settings,
    demo,
    spread: {} as ScoreSpread,
  };
  const line = csvLineWriter(job.delimiter);
  const guard = settings.neutraliseFormulas ? neutraliseFormula : undefined;
  const writers = new Map<ExportKind, BufferedFileWriter>();
  const openWriters = async () => {
    for (const kind of kinds)
      if (kind !== 'summary') writers.set(kind, await BufferedFileWriter.create(partial(pathOf(kind))));
    const bom = settings.bom ? '\uFEFF' : '';
    // job.headers names every column, made up as column_N when the input has no header row.
    const header = job.hasHeader ? `${line(job.headers)}\r\n` : '';
    for (const [kind, writer] of writers)
      writer.write(
        bom + (kind === 'annotated' ? `${line([...job.headers, ...annotationColumns], guard)}\r\n` : header),
      );
    return {
      annotated: writers.get('annotated')!,
      cleaned: writers.get('cleaned')!,
      byKind: writers,
    };
  };
  const discardWriters = async () => {
    for (const writer of writers.values()) await writer.discard();
    writers.clear();
  };
  // The list's readers (one per reading of the input); each ends with the export.
  const readers: RowVerdicts[] = [];
  try {
    let row = 0;
    let hash = createHash('sha256');
    // The writes a row had to wait for; one array for every row, as rows rarely wait.
    const waits: Promise<void>[] = [];
    const waitFor = (wait: Promise<void> | undefined) => {
      if (wait) waits.push(wait);
    };
    /**
     * Counts the row and finds its verdict; answers the writes, and the next row's verdicts, to wait for
     * before the next row.
     */
    const eachRow = async <Row>(write: (row: Row, verdict: RowVerdict, waitFor: WaitFor) => void) => {
      for (const reader of readers.splice(0)) await reader.close();
      store.list(job.id); // opened here first: an older list file is migrated before the reader thread reads it
      const rowVerdicts = createRowVerdicts(store.listPath(job.id));
      readers.push(rowVerdicts);
      await rowVerdicts.readyFor(1);
      return (cells: Row) => {
        row += 1;
        const verdict = rowVerdicts.next(row);
        if (!verdict) throw inputChanged(job, `it has more than the ${job.rowsTotal} rows it had`);
        waits.length = 0;
        write(cells, verdict, waitFor);
        waitFor(rowVerdicts.readyFor(row + 1));
        if (waits.length > 0) return Promise.all(waits).then(() => undefined);
      };
    };
    const readOptions = { delimiter: job.delimiter, skipFirstRow: job.hasHeader };
    // Rows as bytes when the file is of the common shape; else from the start again, as text.
    const asBytes = await readCsvByteRows(
      store.rowsPath(job),
      await eachRow(byteRowWriter(layout, await openWriters())),
      {
        ...readOptions,
        onBytes: (bytes) => hash.update(bytes),
      },
    );
    if (!asBytes) {
      await discardWriters();
      for (const verdict of Object.keys(layout.spread)) delete layout.spread[verdict];
      row = 0;
      hash = createHash('sha256');
      const write = await eachRow(textRowWriter(layout, await openWriters()));
      await readCsvRows(store.rowsPath(job), source, write, { ...readOptions, onBytes: (bytes) => hash.update(bytes) });
    }
    if (row !== job.rowsTotal) throw inputChanged(job, `it has ${row} rows now, ${job.rowsTotal} when it was checked`);
    if (job.contentHash !== null && hash.digest('hex') !== job.contentHash)
      throw inputChanged(job, 'its contents differ');
    for (const writer of writers.values()) await writer.close();
    if (xlsx)
      await asWorkbooks(paths, (kind) => fileOf(kind, 'xlsx'), { delimiter: job.delimiter, displayName: source });
    const summary: ListSummary = { ...summariseJob(store, job), score_spread: layout.spread };
    if (settings.keepAtScore && Object.keys(settings.keepAtScore).length > 0)
      summary.kept_at_score = settings.keepAtScore;
    // Scores made with weights other than Sift's table say which.
    if (settings.scoreWeights && Object.keys(settings.scoreWeights).length > 0)
      summary.score_weights = settings.scoreWeights;
    await writeSummary(partial(pathOf('summary')), summary, demo);
    for (const path of paths.values()) {
      await rename(partial(path), path).catch((error: unknown) => {
        throw writeFailure(error, path);
      });
    }
    return {
      cleanedPath: pathOf('cleaned'),
      annotatedPath: pathOf('annotated'),
      summaryPath: pathOf('summary'),
      files: kinds.map((kind) => ({ kind, path: pathOf(kind) })),
      summary,
    };
  } catch (error) {
    await discardWriters();
    for (const path of paths.values()) await rm(partial(path), { force: true }).catch(() => {});
    throw error;
  } finally {
    for (const reader of readers) await reader.close();
  }
}
