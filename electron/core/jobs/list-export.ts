// Writes a job's outputs, streaming, with the input's columns, header, order and delimiter kept:
//   <name>.cleaned.csv    for re-import: rows whose verdict is kept and whose flags are not removed, each
//                         address once (first occurrence), cells as they were but the address normalised
//   <name>.annotated.csv  for reading in a spreadsheet: every row plus sift_* columns, formulas guarded
//   <name>.summary.json   the list's funnel (common/list-funnel.ts)
//   <name>.<status>.csv   when asked: one file per verdict and flag, in the cleaned list's form
// Each file is written under a temporary name and renamed when complete, and only when the input is
// still the file that was checked: verdicts never land on rows that moved.
import { access, constants, rename, rm, writeFile } from 'node:fs/promises';
import { basename, extname, join } from 'node:path';
import { createHash } from 'node:crypto';
import { AppError } from '../../common/app-error.ts';
import { badSyntaxResult } from '../../common/list-funnel.ts';
import type { ExportKind, ListSummary } from '../../common/contract.ts';
import { normaliseAddress } from '../email/address-precheck.ts';
import { readCsvRows } from '../lists/csv-reader.ts';
import { BufferedFileWriter, csvLineWriter, writeFailure } from '../lists/csv-writer.ts';
import { neutraliseFormula } from '../lists/formula-guard.ts';
import { displayNameOf, type JobRecord, type JobStore } from './job-store.ts';
import { annotationColumns, annotationWriter, resultOf } from './annotation.ts';
import { column, createRowVerdicts, hasFlag } from './row-verdicts.ts';
import { summariseJob } from './list-summary.ts';

export type ExportedFile = { kind: ExportKind; path: string };
export type ExportResult = {
  cleanedPath: string;
  annotatedPath: string;
  summaryPath: string;
  /** Every file written, the three above first. */
  files: ExportedFile[];
  summary: ListSummary;
};

/** The per-status files, in the order they are listed; a verdict file holds the addresses with it. */
const statusKinds = ['valid', 'invalid', 'catch_all', 'unknown', 'role', 'disposable'] as const;
const fileSuffix = (kind: ExportKind) => kind.replace('_', '-');

function inputChanged(job: JobRecord, detail: string): AppError {
  return new AppError(
    'input_changed',
    `"${displayNameOf(job)}" changed since it was checked (${detail}). Sift will not put verdicts on rows that moved: ` +
      'restore the file, or clean it again.',
  );
}

export async function exportJob(store: JobStore, job: JobRecord, outDir: string): Promise<ExportResult> {
  const source = displayNameOf(job);
  const name = basename(source, extname(source));
  const kinds: ExportKind[] = ['cleaned', 'annotated', 'summary', ...(job.settings.perStatusFiles ? statusKinds : [])];
  const paths = new Map(
    kinds.map((kind) => [kind, join(outDir, `${name}.${fileSuffix(kind)}.${kind === 'summary' ? 'json' : 'csv'}`)]),
  );
  const pathOf = (kind: ExportKind) => paths.get(kind)!;
  const partial = (path: string) => `${path}.partial`;
  await access(outDir, constants.W_OK).catch((error: unknown) => {
    throw writeFailure(error, pathOf('cleaned'));
  });
  const { keep: kept, remove, neutraliseFormulas } = job.settings;
  const keep = new Set(kept);
  const guard = neutraliseFormulas ? neutraliseFormula : (value: string) => value;
  const line = csvLineWriter(job.delimiter);
  const verdicts = createRowVerdicts(store.list(job.id));
  const annotate = annotationWriter((values) => line(values, guard));
  const writers = new Map<ExportKind, BufferedFileWriter>();
  try {
    for (const kind of kinds)
      if (kind !== 'summary') writers.set(kind, await BufferedFileWriter.create(partial(pathOf(kind))));
    const bom = job.settings.bom ? '\uFEFF' : '';
    // job.headers names every column, made up as column_N when the input has no header row.
    const header = job.hasHeader ? `${line(job.headers)}\r\n` : '';
    for (const [kind, writer] of writers)
      writer.write(
        bom + (kind === 'annotated' ? `${line([...job.headers, ...annotationColumns], guard)}\r\n` : header),
      );
    const cleaned = writers.get('cleaned')!;
    const annotated = writers.get('annotated')!;

    const hash = createHash('sha256');
    let row = 0;
    // The writes a row had to wait for; one array for every row, as rows rarely wait.
    const waits: Promise<void>[] = [];
    const waitFor = (wait: Promise<void> | undefined) => {
      if (wait) waits.push(wait);
    };
    await readCsvRows(
      job.inputPath,
      source,
      (cells) => {
        row += 1;
        const verdict = verdicts.next(row);
        if (!verdict) throw inputChanged(job, `it has more than the ${job.rowsTotal} rows it had`);
        waits.length = 0;
        // A short row is padded to the header's width, so the sift_* columns line up.
        const padding =
          cells.length < job.headers.length ? job.delimiter.repeat(job.headers.length - cells.length) : '';
        // The annotated line first: the cleaned line below puts the normal address into `cells` itself.
        waitFor(annotated.write(`${line(cells, guard)}${padding}${job.delimiter}${annotate(verdict)}\r\n`));
        const address = verdict.address;
        // Only the first row of an address to check goes to the cleaned and per-status files.
        if (address && !verdict.duplicate && address[column.result] !== badSyntaxResult) {
          const result = resultOf(address);
          const role = hasFlag(address, 'role');
          const disposable = hasFlag(address, 'disposable');
          const suggestion = address[column.suggestion];
          // An accepted suggestion is the address the person meant: it goes into the cleaned list, corrected.
          const accepted = hasFlag(address, 'accepted') && suggestion !== null;
          const typo = suggestion !== null && !accepted;
          const removed = (remove.role && role) || (remove.disposable && disposable) || (remove.typos && typo);
          const toCleaned = (keep.has(result) || accepted) && !removed;
          const byResult = writers.get(result as ExportKind);
          const byRole = role ? writers.get('role') : undefined;
          const byDisposable = disposable ? writers.get('disposable') : undefined;
          if (toCleaned || byResult || byRole || byDisposable) {
            cells[job.columnIndex] = accepted ? suggestion : normaliseAddress(cells[job.columnIndex] ?? '');
            const text = `${line(cells)}\r\n`;
            if (toCleaned) waitFor(cleaned.write(text));
            if (byResult) waitFor(byResult.write(text));
            if (byRole) waitFor(byRole.write(text));
            if (byDisposable) waitFor(byDisposable.write(text));
          }
        }
        if (waits.length > 0) return Promise.all(waits).then(() => undefined);
      },
      { delimiter: job.delimiter, skipFirstRow: job.hasHeader, onBytes: (bytes) => hash.update(bytes) },
    );
    if (row !== job.rowsTotal) throw inputChanged(job, `it has ${row} rows now, ${job.rowsTotal} when it was checked`);
    if (job.contentHash !== null && hash.digest('hex') !== job.contentHash)
      throw inputChanged(job, 'its contents differ');
    for (const writer of writers.values()) await writer.close();
    const summary = summariseJob(store, job);
    await writeFile(partial(pathOf('summary')), `${JSON.stringify(summary, null, 2)}\n`).catch((error: unknown) => {
      throw writeFailure(error, pathOf('summary'));
    });
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
    for (const writer of writers.values()) await writer.discard();
    await rm(partial(pathOf('summary')), { force: true }).catch(() => {});
    throw error;
  }
}
