// The batches and their rows: staged in chunks (so a huge upload is never held whole), and
// the pending rows the worker probes. Reading results back is in batch-results-store.ts, the batch
// lifecycle in batch-lifecycle-store.ts.
import { createAddressIndex, type AddressIndex } from '../../email/address-index.ts';
import { checkSyntax } from '../../email/syntax.ts';
import type { SqlConnection } from '../../storage/sql-connection.ts';
import { assumedErrors, batchStatuses } from '../../wire/assumptions.ts';
import type { KeyMode } from '../../wire/spec.ts';
import type { ServiceConfig } from '../service-config.ts';
import { invalidRequest, ServiceError } from '../service-errors.ts';
import { newId } from './schema.ts';
import { livingProcessesSql } from './service-processes-store.ts';
import { afterSeqInBatchSql, inBatchSql, rowIdSql, rowKeyOfSql, seqMask, withBatchBaseSql } from './row-ids.ts';
import { rowBatches } from './batch-rows-insert.ts';
import type { Verdict } from '../engines/engine.ts';

/** Not a spec state: a batch whose addresses are still arriving. Never visible through the API. */
const importing = 'importing';

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

export async function loadBatch(db: SqlConnection, id: string): Promise<BatchRecord | undefined> {
  return (await db.get('SELECT * FROM batches WHERE id = ?', [id])) as BatchRecord | undefined;
}

/** The batch, locked until the transaction ends (on SQLite the one transaction at a time is the lock). */
export async function lockBatch(db: SqlConnection, id: string): Promise<BatchRecord | undefined> {
  return (await db.get(`SELECT * FROM batches WHERE id = ? ${db.dialect.forUpdate}`, [id])) as BatchRecord | undefined;
}

/** A batch the key may see: its own mode's batches (sandbox and live data never mix). */
export async function getBatchFor(db: SqlConnection, id: string, mode: KeyMode): Promise<BatchRecord> {
  const batch = await loadBatch(db, id);
  if (!batch || batch.mode !== mode || batch.status === importing) {
    throw new ServiceError('not_found', assumedErrors.batchNotFound, `No batch ${id}.`);
  }
  return batch;
}

/** SQL: a new batch's row key. On PostgreSQL several processes make batches at once, so a sequence gives it. */
const nextRowKeySql = (db: SqlConnection) =>
  db.dialect.nextInSequence('batch_row_keys', '(SELECT COALESCE(MAX(row_key), 0) + 1 FROM batches)');

export async function beginBatch(
  db: SqlConnection,
  now: number,
  key: { id: string; mode: KeyMode },
  name: string,
  /** The process taking the upload: if it goes, another lets the upload go. */
  owner: string,
): Promise<string> {
  const id = newId('bat');
  await db.run(
    `INSERT INTO batches (id, key_id, mode, name, status, created_at, import_owner, row_key)
     VALUES (?, ?, ?, ?, ?, ?, ?, ${nextRowKeySql(db)})`,
    [id, key.id, key.mode, name, importing, now, owner],
  );
  return id;
}

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

/**
 * Adds one chunk of addresses in one transaction; duplicates count as submitted, not unique. Only this
 * upload writes its batch until it opens, so what it already stored is read before the transaction, and
 * the transaction's work is only the writes (safe to run again).
 */
export async function stageAddresses(
  db: SqlConnection,
  config: ServiceConfig,
  batchId: string,
  addresses: readonly string[],
  { seen, answerNow }: Staging,
): Promise<void> {
  const batch = (await loadBatch(db, batchId))!;
  if (batch.submitted + addresses.length > config.maxBatchAddresses) {
    throw invalidRequest('batch_too_large', `A batch holds at most ${config.maxBatchAddresses} addresses.`);
  }
  // What remains is inserted without conflicts, in statements of many rows (a statement per address
  // costs more than the rest of staging). A candidate repeat is confirmed against its row: stored rows'
  // addresses are read first, all at once; this chunk's rows are not stored yet, so their addresses are
  // kept by seq until they are.
  const rows = rowBatches();
  // This chunk's new addresses by seq, from the first seq after those stored: seqs are consecutive.
  const unstored: string[] = [];
  const firstNewSeq = batch.unique_count + 1;
  const rowKey = batch.row_key;
  // Trimmed and lower-cased once: the look for stored candidates and the staging below both need them.
  const emails = addresses.map((raw) => raw.trim());
  const norms = emails.map((email) => email.toLowerCase());
  const stored = await storedAddresses(db, rowKey, batch.unique_count, norms, seen);
  const sameAddress = (at: number, norm: string) =>
    (at >= firstNewSeq ? unstored[at - firstNewSeq] : stored.get(at)) === norm;
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
  for (let i = 0; i < emails.length; i += 1) {
    const email = emails[i]!;
    const norm = norms[i]!;
    if (!seen.idFor(norm, sameAddress, () => seq + 1).created) continue;
    seq += 1;
    unstored.push(norm);
    const syntax = checkSyntax(email);
    // Bad syntax gets its verdict now: it is never probed and never billed.
    const verdict = syntax.ok
      ? answer(email, syntax.asciiDomain)
      : { result: 'invalid', reason: 'invalid_syntax', role: false, disposable: false };
    const host = syntax.ok ? syntax.asciiDomain : null;
    if (!verdict) {
      rows.add(rowKey, seq, email, host, null, null, 0, 0, rowKey, null);
      continue;
    }
    const { result, reason, role, disposable } = verdict;
    rows.add(rowKey, seq, email, host, result, reason, role ? 1 : 0, disposable ? 1 : 0, rowKey, resultSeq);
    resultSeq += 1;
    counts.done += 1;
    if (result in counts) counts[result as 'valid'] += 1;
    if (syntax.ok && role) counts.role += 1;
    if (syntax.ok && disposable) counts.disposable += 1;
  }
  await db.transaction(async (tx) => {
    // In seq order, which is the key's: every row lands at the end of the table, page after page.
    await rows.insert(tx);
    await tx.run(
      `UPDATE batches SET submitted = submitted + ?, unique_count = ?, done_count = done_count + ?, c_valid = c_valid + ?,
       c_invalid = c_invalid + ?, c_catch_all = c_catch_all + ?, c_unknown = c_unknown + ?, c_role = c_role + ?,
       c_disposable = c_disposable + ?, next_result_seq = ? WHERE id = ?`,
      [
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
      ],
    );
  });
}

/** Rows read per query when confirming candidate repeats. */
const candidatesPerRead = 500;

/**
 * The stored addresses (lower-cased, by seq) that `seen` offers as candidates for any of `norms`
 * (addresses trimmed and lower-cased): mostly true repeats, now and then another address with the same
 * fingerprint.
 */
async function storedAddresses(
  db: SqlConnection,
  rowKey: number,
  storedCount: number,
  norms: readonly string[],
  seen: AddressIndex,
): Promise<Map<number, string>> {
  const candidates = new Set<number>();
  const collect = (at: number) => {
    if (at <= storedCount) candidates.add(at);
    return false;
  };
  if (storedCount > 0) for (const norm of norms) seen.find(norm, collect);
  const stored = new Map<number, string>();
  const seqs = [...candidates];
  for (let i = 0; i < seqs.length; i += candidatesPerRead) {
    const group = seqs.slice(i, i + candidatesPerRead);
    const keys = group.map(() => rowIdSql('?', '?')).join(', ');
    const rows = await db.all<{ seq: number; email: string }>(
      `SELECT id & ${seqMask} AS seq, email FROM batch_rows WHERE id IN (${keys})`,
      group.flatMap((at) => [rowKey, at]),
    );
    for (const row of rows) stored.set(row.seq, row.email.toLowerCase());
  }
  return stored;
}

export async function discardBatch(db: SqlConnection, batchId: string): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.run(`DELETE FROM batch_rows WHERE ${inBatchSql(rowKeyOfSql)}`, [batchId, batchId]);
    await tx.run('DELETE FROM batches WHERE id = ?', [batchId]);
  });
}

/** Batches whose upload will never finish: the process taking it is gone (and the caller never got an id). */
export async function discardUnfinishedImports(db: SqlConnection): Promise<void> {
  const orphans = await db.all<{ id: string }>(
    `SELECT id FROM batches WHERE status = ?
     AND (import_owner IS NULL OR import_owner NOT IN (${livingProcessesSql}))`,
    [importing],
  );
  for (const { id } of orphans) await discardBatch(db, id);
}

/** How many addresses a batch has been given so far. */
export async function submittedCount(db: SqlConnection, batchId: string): Promise<number> {
  return ((await db.get('SELECT submitted FROM batches WHERE id = ?', [batchId])) as { submitted: number }).submitted;
}

/** Running batches, oldest first: the worker's queue. */
export async function runningBatches(db: SqlConnection): Promise<{ id: string; mode: KeyMode; submitted: number }[]> {
  return db.all('SELECT id, mode, submitted FROM batches WHERE status = ? ORDER BY created_at', [
    batchStatuses.running,
  ]);
}

export type PendingRow = { seq: number; email: string; host: string };

/** The rows of a batch without a verdict, in order, from row `firstSeq` through row `lastSeq`. */
export async function pendingRows(
  db: SqlConnection,
  batchId: string,
  firstSeq: number,
  lastSeq: number,
): Promise<PendingRow[]> {
  return (await db.all(
    `${withBatchBaseSql}
     SELECT id - base AS seq, email, host FROM batch, batch_rows
     WHERE ${afterSeqInBatchSql('id')} AND id <= (base | CAST(? AS BIGINT)) AND result IS NULL ORDER BY id`,
    [batchId, firstSeq - 1, lastSeq],
  )) as PendingRow[];
}
