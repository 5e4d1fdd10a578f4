// Writes a job's outputs, streaming, with the input's columns, header, order and delimiter kept:
//   <name>.cleaned.csv    rows whose verdict is in the chosen set, each address once (first occurrence)
//   <name>.annotated.csv  every input row plus sift_* columns
//   <name>.summary.json   the spec's batch-summary counters plus submitted and unique
// Each file is written under a temporary name and renamed when complete, and only when the input is
// still the file that was checked: verdicts never land on rows that moved.
import { access, constants, rename, rm, writeFile } from 'node:fs/promises';
import { basename, extname, join } from 'node:path';
import { createHash } from 'node:crypto';
import { AppError } from '../../common/app-error.ts';
import type { ListSummary } from '../../common/contract.ts';
import { readCsvRows } from '../lists/csv-reader.ts';
import { BufferedFileWriter, csvLineWriter, writeFailure } from '../lists/csv-writer.ts';
import { neutraliseFormula } from '../lists/formula-guard.ts';
import { displayNameOf, type JobRecord, type JobStore } from './job-store.ts';
import { annotationColumns, annotationWriter, resultOf } from './annotation.ts';
import { createRowVerdicts } from './row-verdicts.ts';
import { summariseJob } from './list-summary.ts';

export type ExportResult = { cleanedPath: string; annotatedPath: string; summaryPath: string; summary: ListSummary };

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
  const cleanedPath = join(outDir, `${name}.cleaned.csv`);
  const annotatedPath = join(outDir, `${name}.annotated.csv`);
  const summaryPath = join(outDir, `${name}.summary.json`);
  const partial = (path: string) => `${path}.partial`;
  await access(outDir, constants.W_OK).catch((error: unknown) => {
    throw writeFailure(error, cleanedPath);
  });
  const keep = new Set(job.settings.keep);
  const cell = job.settings.neutraliseFormulas ? neutraliseFormula : (value: string) => value;
  const line = csvLineWriter(job.delimiter);
  const verdicts = createRowVerdicts(store.list(job.id));
  const annotate = annotationWriter((values) => line(values.map(cell)));
  const writers: BufferedFileWriter[] = [];
  try {
    const cleaned = await BufferedFileWriter.create(partial(cleanedPath));
    writers.push(cleaned);
    const annotated = await BufferedFileWriter.create(partial(annotatedPath));
    writers.push(annotated);
    const bom = job.settings.bom ? '\uFEFF' : '';
    // job.headers names every column, made up as column_N when the input has no header row.
    cleaned.write(bom + (job.hasHeader ? `${line(job.headers.map(cell))}\r\n` : ''));
    annotated.write(`${bom}${line([...job.headers, ...annotationColumns].map(cell))}\r\n`);

    const hash = createHash('sha256');
    let row = 0;
    await readCsvRows(
      job.inputPath,
      source,
      (cells) => {
        row += 1;
        const verdict = verdicts.next(row);
        if (!verdict) throw inputChanged(job, `it has more than the ${job.rowsTotal} rows it had`);
        // A row without an address counts as invalid, as in the annotated file.
        const result = verdict.address ? resultOf(verdict.address) : 'invalid';
        const guarded = cells.map(cell);
        const waits = [keep.has(result) && !verdict.duplicate ? cleaned.write(`${line(guarded)}\r\n`) : undefined];
        while (guarded.length < job.headers.length) guarded.push('');
        waits.push(annotated.write(`${line(guarded)}${job.delimiter}${annotate(verdict)}\r\n`));
        if (waits.some((wait) => wait !== undefined)) return Promise.all(waits).then(() => undefined);
      },
      { delimiter: job.delimiter, skipFirstRow: job.hasHeader, onBytes: (bytes) => hash.update(bytes) },
    );
    if (row !== job.rowsTotal) throw inputChanged(job, `it has ${row} rows now, ${job.rowsTotal} when it was checked`);
    if (job.contentHash !== null && hash.digest('hex') !== job.contentHash)
      throw inputChanged(job, 'its contents differ');
    for (const writer of writers) await writer.close();
    const summary = summariseJob(store, job);
    await writeFile(partial(summaryPath), `${JSON.stringify(summary, null, 2)}\n`).catch((error: unknown) => {
      throw writeFailure(error, summaryPath);
    });
    for (const path of [cleanedPath, annotatedPath, summaryPath]) {
      await rename(partial(path), path).catch((error: unknown) => {
        throw writeFailure(error, path);
      });
    }
    return { cleanedPath, annotatedPath, summaryPath, summary };
  } catch (error) {
    for (const writer of writers) await writer.discard();
    await rm(partial(summaryPath), { force: true }).catch(() => {});
    throw error;
  }
}
