// The batches and their rows: staged in chunks (so a huge upload is never held whole), and
// the pending rows the worker probes. Reading results back is in batch-results-store.ts, the batch
// lifecycle in batch-lifecycle-store.ts.
import { createAddressIndex, type AddressIndex } from '../../email/address-index.ts';
import { checkSyntax } from '../../email/syntax.ts';
import { transaction, type Database, sql } from '../../storage/sqlite.ts';
import { assumedErrors, batchStatuses } from '../../wire/assumptions.ts';
import type { KeyMode } from '../../wire/spec.ts';
import type { ServiceConfig } from '../service-config.ts';
import { invalidRequest, ServiceError } from '../service-errors.ts';
import { newId } from './schema.ts';
import { afterSeqInBatchSql, inBatchSql, rowIdSql, rowKeyOfSql, withBatchBaseSql } from './row-ids.ts';
import type { Verdict } from '../sandbox-verdicts.ts';

/** Not a spec state: a batch whose addresses are still arriving. Never visible through the API. */
export const importing = 'importing';

export type BatchRecord = {
  id: string;
  key_id: string;
  mode: KeyMode;
  name: string;
  status: string;
  submitted: number;
  unique_count: number;
  done_count: number;
  c_valid: number;
  c_invalid: number;
  c_catch_all: number;
  c_unknown: number;
  c_role: number;
  c_disposable: number;
  c_billed: number;
  reserved_free: number;
  reserved_paid: number;
  free_month: string;
  next_result_seq: number;
  /** The high half of its rows' keys (row-ids.ts). */
  row_key: number;
  created_at: number;
  ended_at: number | null;
  error: string | null;
};

export function loadBatch(db: Database, id: string): BatchRecord | undefined {
  return sql(db, 'SELECT * FROM batches WHERE id = ?').get(id) as BatchRecord | undefined;
}

/** A batch the key may see: its own mode's batches (sandbox and live data never mix). */
export function getBatchFor(db: Database, id: string, mode: KeyMode): BatchRecord {
  const batch = loadBatch(db, id);
  if (!batch || batch.mode !== mode || batch.status === importing) {
    throw new ServiceError('not_found', assumedErrors.batchNotFound, `No batch ${id}.`);
  }
  return batch;
}

export function beginBatch(db: Database, now: number, key: { id: string; mode: KeyMode }, name: string): string {
  const id = newId('bat');
  sql(
    db,
    `INSERT INTO batches (id, key_id, mode, name, status, created_at, row_key)
     VALUES (?, ?, ?, ?, ?, ?, (SELECT COALESCE(MAX(row_key), 0) + 1 FROM batches))`,
  ).run(id, key.id, key.mode, name, importing, now);
  return id;
}

const rowColumns = '(id, email, host, result, reason, role, disposable, result_key)';
// Row key and seq, the verdict's columns, row key and result_seq (NULL for no verdict yet).
const rowValues = `(${rowIdSql('?', '?')}, ?, ?, ?, ?, ?, ?, ${rowIdSql('?', '?')})`;
const rowsPerInsert = 64;

/** A verdict an engine can give at once, with no connection (the sandbox); undefined leaves the address to the worker. */
export type AnswerNow = (local: string, asciiDomain: string) => Verdict | undefined;

/**
 * One upload's staging, from its first chunk to its last. `seen` finds an address the upload already had
 * (a fingerprint of each in typed arrays, confirmed against the stored row) without an index of every
 * address in the database; a batch never gains addresses after its upload, so nothing else needs one.
 * With `answerNow`, addresses get their verdict in the same write (never billed: only sandbox keys do this).
 */
export type Staging = { seen: AddressIndex; answerNow?: AnswerNow };

export function beginStaging(answerNow?: AnswerNow, expected?: number): Staging {
  return { seen: createAddressIndex(expected), ...(answerNow ? { answerNow } : {}) };
}

function insertRows(db: Database, rows: readonly (string | number | null)[][]): void {
  const many = sql(
    db,
    `INSERT INTO batch_rows ${rowColumns} VALUES ${Array(rowsPerInsert).fill(rowValues).join(', ')}`,
  );
  const one = sql(db, `INSERT INTO batch_rows ${rowColumns} VALUES ${rowValues}`);
  let i = 0;
  for (; i + rowsPerInsert <= rows.length; i += rowsPerInsert) many.run(...rows.slice(i, i + rowsPerInsert).flat());
  for (; i < rows.length; i += 1) one.run(...rows[i]!);
}

/** Adds one chunk of addresses in one transaction; duplicates count as submitted, not unique. */
export function stageAddresses(
  db: Database,
  config: ServiceConfig,
  batchId: string,
  addresses: readonly string[],
  { seen, answerNow }: Staging,
): void {
  transaction(db, () => {
    const batch = loadBatch(db, batchId)!;
    if (batch.submitted + addresses.length > config.maxBatchAddresses) {
      throw invalidRequest('batch_too_large', `A batch holds at most ${config.maxBatchAddresses} addresses.`);
    }
    // What remains is inserted without conflicts, in statements of many rows (a statement per address
    // costs more than the rest of staging). A candidate repeat is confirmed against its row: this chunk's
    // rows are not stored yet, so their addresses are kept by seq until they are.
    const rows: (string | number | null)[][] = [];
    const unstored = new Map<number, string>();
    const rowKey = batch.row_key;
    const storedEmail = sql(db, `SELECT email FROM batch_rows WHERE id = ${rowIdSql('?', '?')}`);
    const sameAddress = (at: number, norm: string) =>
      (unstored.get(at) ?? (storedEmail.get(rowKey, at) as { email: string } | undefined)?.email.toLowerCase()) ===
      norm;
    let seq = batch.unique_count;
    let resultSeq = batch.next_result_seq;
    const counts = { valid: 0, invalid: 0, catch_all: 0, unknown: 0, role: 0, disposable: 0, done: 0 };
    const answer = (email: string, domain: string) => {
      try {
        return answerNow?.(email.slice(0, email.lastIndexOf('@')), domain);
      } catch {
        return undefined; // the worker asks again, and gives the batch up if it keeps failing
      }
    };
    for (const raw of addresses) {
      const email = raw.trim();
      const norm = email.toLowerCase();
      if (!seen.idFor(norm, sameAddress, () => seq + 1).created) continue;
      seq += 1;
      unstored.set(seq, norm);
      const syntax = checkSyntax(email);
      // Bad syntax gets its verdict now: it is never probed and never billed.
      const verdict = syntax.ok
        ? answer(email, syntax.asciiDomain)
        : { result: 'invalid', reason: 'invalid_syntax', role: false, disposable: false };
      const host = syntax.ok ? syntax.asciiDomain : null;
      if (!verdict) {
        rows.push([rowKey, seq, email, host, null, null, 0, 0, rowKey, null]);
        continue;
      }
      const { result, reason, role, disposable } = verdict;
      rows.push([rowKey, seq, email, host, result, reason, role ? 1 : 0, disposable ? 1 : 0, rowKey, resultSeq]);
      resultSeq += 1;
      counts.done += 1;
      if (result in counts) counts[result as 'valid'] += 1;
      if (syntax.ok && role) counts.role += 1;
      if (syntax.ok && disposable) counts.disposable += 1;
    }
    // In seq order, which is the key's: every row lands at the end of the table, page after page.
    insertRows(db, rows);
    sql(
      db,
      `UPDATE batches SET submitted = submitted + ?, unique_count = ?, done_count = done_count + ?, c_valid = c_valid + ?,
       c_invalid = c_invalid + ?, c_catch_all = c_catch_all + ?, c_unknown = c_unknown + ?, c_role = c_role + ?,
       c_disposable = c_disposable + ?, next_result_seq = ? WHERE id = ?`,
    ).run(
      addresses.length,
      seq,
      counts.done,
      counts.valid,
      counts.invalid,
      counts.catch_all,
      counts.unknown,
      counts.role,
      counts.disposable,
      resultSeq,
      batchId,
    );
  });
}

export function discardBatch(db: Database, batchId: string): void {
  transaction(db, () => {
    sql(db, `DELETE FROM batch_rows WHERE ${inBatchSql(rowKeyOfSql)}`).run(batchId, batchId);
    sql(db, 'DELETE FROM batches WHERE id = ?').run(batchId);
  });
}

/** After a restart: batches whose upload never finished are dropped (the caller never got an id for them). */
export function discardUnfinishedImports(db: Database): void {
  for (const { id } of sql(db, 'SELECT id FROM batches WHERE status = ?').all(importing) as { id: string }[]) {
    discardBatch(db, id);
  }
}

/** How many addresses a batch has been given so far. */
export function submittedCount(db: Database, batchId: string): number {
  return (sql(db, 'SELECT submitted FROM batches WHERE id = ?').get(batchId) as { submitted: number }).submitted;
}

/** Running batches, oldest first: the worker's queue. */
export function runningBatches(db: Database): { id: string; mode: KeyMode }[] {
  return sql(db, 'SELECT id, mode FROM batches WHERE status = ? ORDER BY created_at').all(batchStatuses.running) as {
    id: string;
    mode: KeyMode;
  }[];
}

export type PendingRow = { seq: number; email: string; host: string };

/** Up to `limit` rows of a batch without a verdict, in order, after row `afterSeq`. */
export function pendingRows(db: Database, batchId: string, afterSeq: number, limit: number): PendingRow[] {
  return sql(
    db,
    `${withBatchBaseSql}
     SELECT id - base AS seq, email, host FROM batch, batch_rows
     WHERE ${afterSeqInBatchSql('id')} AND result IS NULL ORDER BY id LIMIT ?`,
  ).all(batchId, afterSeq, limit) as PendingRow[];
}
