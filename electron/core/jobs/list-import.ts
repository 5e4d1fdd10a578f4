// Reads a list into its job, streaming: layout from the first rows, then every row pre-checked and
// stored in chunks. Nothing is sent or billed here; an import interrupted by a crash starts over.
import { basename } from 'node:path';
import { AppError } from '../../common/app-error.ts';
import { precheckAddress } from '../email/address-precheck.ts';
import { detachCell, readCsvRows } from '../lists/csv-reader.ts';
import { detectLayout, type ListLayout } from '../lists/email-column.ts';
import { sql, transaction } from '../storage/sqlite.ts';
import { displayNameOf, type JobRecord, type JobStore } from './job-store.ts';

const sampleRows = 200;
const chunkRows = 2000;

export async function detectListLayout(
  path: string,
  column?: string,
  displayName = basename(path),
): Promise<ListLayout & { delimiter: string }> {
  const sample: string[][] = [];
  const { delimiter } = await readCsvRows(path, displayName, (row) => {
    sample.push(row);
    if (sample.length >= sampleRows) return false;
  });
  return { ...detectLayout(sample, displayName, column), delimiter };
}

export async function importList(
  store: JobStore,
  job: JobRecord,
  onProgress: (rows: number) => void = () => {},
): Promise<JobRecord> {
  const displayName = displayNameOf(job);
  const layout = await detectListLayout(job.inputPath, job.settings.column, displayName);
  // A file without a header still gets names for its columns, for the annotated file and the column picker.
  const headers = layout.hasHeader ? layout.headers : Array.from({ length: layout.width }, (_, i) => `column_${i + 1}`);
  store.setLayout(job.id, { ...layout, headers });
  store.clearImport(job.id);
  const db = store.db;
  const insertRow = sql(
    db,
    'INSERT INTO job_rows (job_id, row_index, address_key, status, first, suggestion) VALUES (?, ?, ?, ?, ?, ?)',
  );
  const insertAddress = sql(
    db,
    'INSERT INTO job_addresses (job_id, key, address, seq, role, disposable, result, reason) VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING',
  );
  let rowIndex = 0;
  let seq = 0;
  let pending: string[] = [];

  const flush = () => {
    transaction(db, () => {
      for (const cell of pending) {
        const check = precheckAddress(cell);
        rowIndex += 1;
        if (!check.ok && check.reason === 'no_address') {
          insertRow.run(job.id, rowIndex, null, 'no_address', 0, null);
          continue;
        }
        // Bad syntax gets its verdict here and is never sent; good addresses get a place in the batches.
        const inserted = check.ok
          ? insertAddress.run(
              job.id,
              check.key,
              check.address,
              seq + 1,
              check.role ? 1 : 0,
              check.disposable ? 1 : 0,
              null,
              null,
            ).changes
          : insertAddress.run(job.id, check.key!, check.key!, null, 0, 0, 'invalid', 'syntax').changes;
        if (inserted > 0 && check.ok) seq += 1;
        insertRow.run(
          job.id,
          rowIndex,
          check.key!,
          check.ok ? 'ok' : 'syntax',
          inserted > 0 ? 1 : 0,
          check.suggestion ?? null,
        );
      }
    });
    pending = [];
    onProgress(rowIndex);
  };

  await readCsvRows(
    job.inputPath,
    displayName,
    (row) => {
      pending.push(detachCell(row[layout.columnIndex] ?? ''));
      if (pending.length >= chunkRows) flush();
    },
    { delimiter: layout.delimiter, skipFirstRow: layout.hasHeader },
  );
  flush();
  if (rowIndex === 0) throw new AppError('unreadable_file', `"${displayName}" has no rows of data.`);
  store.finishImport(job.id, rowIndex);
  return store.getJob(job.id)!;
}
