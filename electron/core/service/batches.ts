// Batches: staged in chunks (so a huge upload is never held whole), opened with a credit reservation,
// verified row by row, and ended complete, failed (refunded) or canceled (keeps what was verified).
// Results are ordered by when their verdict was written, so a cursor is a position that stays valid
// while rows are still being added behind it.
import { checkSyntax } from '../email/syntax.ts';
import { assumedErrors, batchStatuses, type BatchObject } from '../wire/assumptions.ts';
import type { BatchSummary, KeyMode, ResultRow } from '../wire/spec.ts';
import { transaction, type Database, sql } from '../storage/sqlite.ts';
import { refundCredits, reserveCredits } from './credits.ts';
import { newId } from './schema.ts';
import type { ServiceConfig } from './service-config.ts';
import { invalidRequest } from './service-error.ts';
import { recordEvent } from './webhooks.ts';
import type { Verdict } from './sandbox-verdicts.ts';

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
  created_at: number;
  ended_at: number | null;
  error: string | null;
};

export function summaryOf(batch: BatchRecord): BatchSummary {
  return {
    valid: batch.c_valid,
    invalid: batch.c_invalid,
    catch_all: batch.c_catch_all,
    unknown: batch.c_unknown,
    duplicates: batch.submitted - batch.unique_count,
    role: batch.c_role,
    disposable: batch.c_disposable,
    billed: batch.c_billed,
  };
}

export function batchObject(batch: BatchRecord): BatchObject {
  return {
    id: batch.id,
    name: batch.name,
    status: batch.status,
    submitted: batch.submitted,
    unique: batch.unique_count,
    created_at: new Date(batch.created_at).toISOString(),
    completed_at:
      batch.status === batchStatuses.complete && batch.ended_at ? new Date(batch.ended_at).toISOString() : null,
    summary: summaryOf(batch),
  };
}

function loadBatch(db: Database, id: string): BatchRecord | undefined {
  return sql(db, 'SELECT * FROM batches WHERE id = ?').get(id) as BatchRecord | undefined;
}

/** A batch the key may see: its own mode's batches (sandbox and live data never mix). */
export function getBatchFor(db: Database, id: string, mode: KeyMode): BatchRecord {
  const batch = loadBatch(db, id);
  if (!batch || batch.mode !== mode || batch.status === importing) {
    throw invalidRequest(assumedErrors.batchNotFound, `No batch ${id}.`, 404);
  }
  return batch;
}

export function beginBatch(db: Database, now: number, key: { id: string; mode: KeyMode }, name: string): string {
  const id = newId('bat');
  sql(db, 'INSERT INTO batches (id, key_id, mode, name, status, created_at) VALUES (?, ?, ?, ?, ?, ?)').run(
    id,
    key.id,
    key.mode,
    name,
    importing,
    now,
  );
  return id;
}

/** Adds one chunk of addresses in one transaction; duplicates count as submitted, not unique. */
export function stageAddresses(
  db: Database,
  config: ServiceConfig,
  batchId: string,
  addresses: readonly string[],
): void {
  transaction(db, () => {
    const batch = loadBatch(db, batchId)!;
    if (batch.submitted + addresses.length > config.maxBatchAddresses) {
      throw invalidRequest('batch_too_large', `A batch holds at most ${config.maxBatchAddresses} addresses.`);
    }
    const insert = sql(
      db,
      `INSERT INTO batch_rows (batch_id, seq, email, norm, host, result, reason, result_seq)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (batch_id, norm) DO NOTHING`,
    );
    let seq = batch.unique_count;
    let resultSeq = batch.next_result_seq;
    let invalid = 0;
    for (const raw of addresses) {
      const email = raw.trim();
      const syntax = checkSyntax(email);
      const norm = email.toLowerCase();
      // Bad syntax gets its verdict now: it is never probed and never billed.
      const changes = syntax.ok
        ? insert.run(batchId, seq + 1, email, norm, syntax.asciiDomain, null, null, null).changes
        : insert.run(batchId, seq + 1, email, norm, null, 'invalid', 'invalid_syntax', resultSeq).changes;
      if (changes > 0) {
        seq += 1;
        if (!syntax.ok) {
          invalid += 1;
          resultSeq += 1;
        }
      }
    }
    sql(
      db,
      `UPDATE batches SET submitted = submitted + ?, unique_count = ?, done_count = done_count + ?, c_invalid = c_invalid + ?,
       next_result_seq = ? WHERE id = ?`,
    ).run(addresses.length, seq, invalid, invalid, resultSeq, batchId);
  });
}

/** Reserves the credits the batch may spend and lets the worker at it, or answers 402 and drops it. */
export function openBatch(
  db: Database,
  config: ServiceConfig,
  now: number,
  batchId: string,
  /** Runs in the same transaction, so an idempotent answer is stored together with the batch it names. */
  afterOpen: (batch: BatchRecord) => void = () => {},
): BatchRecord {
  try {
    return transaction(db, () => {
      const batch = loadBatch(db, batchId)!;
      const toCheck = batch.unique_count - batch.done_count;
      const reservation =
        batch.mode === 'live' ? reserveCredits(db, config, now, toCheck) : { free: 0, paid: 0, freeMonth: '' };
      sql(db, 'UPDATE batches SET status = ?, reserved_free = ?, reserved_paid = ?, free_month = ? WHERE id = ?').run(
        batchStatuses.running,
        reservation.free,
        reservation.paid,
        reservation.freeMonth,
        batchId,
      );
      completeIfDone(db, now, batchId);
      const opened = loadBatch(db, batchId)!;
      afterOpen(opened);
      return opened;
    });
  } catch (error) {
    discardBatch(db, batchId);
    throw error;
  }
}

export function discardBatch(db: Database, batchId: string): void {
  transaction(db, () => {
    sql(db, 'DELETE FROM batch_rows WHERE batch_id = ?').run(batchId);
    sql(db, 'DELETE FROM batches WHERE id = ?').run(batchId);
  });
}

/** After a restart: batches whose upload never finished are dropped (the caller never got an id for them). */
export function discardUnfinishedImports(db: Database): void {
  for (const { id } of sql(db, 'SELECT id FROM batches WHERE status = ?').all(importing) as { id: string }[]) {
    discardBatch(db, id);
  }
}

export type ProbeOutcome = { seq: number; verdict?: Verdict; error?: string };

/** Writes a round of probe outcomes for one batch in one transaction; ignores a batch that has ended meanwhile. */
export function recordOutcomes(
  db: Database,
  config: ServiceConfig,
  now: number,
  batchId: string,
  outcomes: ProbeOutcome[],
): void {
  transaction(db, () => {
    const batch = loadBatch(db, batchId);
    if (!batch || batch.status !== batchStatuses.running) return;
    let { reserved_free: reservedFree, reserved_paid: reservedPaid, next_result_seq: resultSeq } = batch;
    const counters = { valid: 0, invalid: 0, catch_all: 0, unknown: 0, role: 0, disposable: 0, billed: 0, done: 0 };
    const write = sql(
      db,
      `UPDATE batch_rows SET result = ?, reason = ?, role = ?, disposable = ?, billed = ?, billed_free = ?, result_seq = ?
       WHERE batch_id = ? AND seq = ? AND result IS NULL`,
    );
    const failAttempt = sql(
      db,
      'UPDATE batch_rows SET attempts = attempts + 1 WHERE batch_id = ? AND seq = ? RETURNING attempts',
    );
    let gaveUp: string | null = null;
    for (const outcome of outcomes) {
      if (!outcome.verdict) {
        const { attempts } = failAttempt.get(batchId, outcome.seq) as { attempts: number };
        if (attempts >= config.maxProbeAttempts) gaveUp = outcome.error ?? 'The mail host could not be checked.';
        continue;
      }
      const { verdict } = outcome;
      const billed = batch.mode === 'live';
      const fromFree = billed && reservedFree > 0;
      const changes = write.run(
        verdict.result,
        verdict.reason,
        verdict.role ? 1 : 0,
        verdict.disposable ? 1 : 0,
        billed ? 1 : 0,
        fromFree ? 1 : 0,
        resultSeq,
        batchId,
        outcome.seq,
      ).changes;
      if (changes === 0) continue;
      resultSeq += 1;
      if (billed) {
        if (fromFree) reservedFree -= 1;
        else reservedPaid -= 1;
        counters.billed += 1;
      }
      if (verdict.result in counters) counters[verdict.result as 'valid'] += 1;
      if (verdict.role) counters.role += 1;
      if (verdict.disposable) counters.disposable += 1;
      counters.done += 1;
    }
    sql(
      db,
      `UPDATE batches SET c_valid = c_valid + ?, c_invalid = c_invalid + ?, c_catch_all = c_catch_all + ?, c_unknown = c_unknown + ?,
       c_role = c_role + ?, c_disposable = c_disposable + ?, c_billed = c_billed + ?, done_count = done_count + ?,
       reserved_free = ?, reserved_paid = ?, next_result_seq = ? WHERE id = ?`,
    ).run(
      counters.valid,
      counters.invalid,
      counters.catch_all,
      counters.unknown,
      counters.role,
      counters.disposable,
      counters.billed,
      counters.done,
      Math.max(0, reservedFree),
      Math.max(0, reservedPaid),
      resultSeq,
      batchId,
    );
    if (gaveUp) failBatch(db, now, batchId, gaveUp);
    else completeIfDone(db, now, batchId);
  });
}

function completeIfDone(db: Database, now: number, batchId: string): void {
  const batch = loadBatch(db, batchId)!;
  if (batch.status !== batchStatuses.running || batch.done_count < batch.unique_count) return;
  // Whatever was reserved and not spent (it should be nothing) goes back.
  refundCredits(db, now, { free: batch.reserved_free, paid: batch.reserved_paid, freeMonth: batch.free_month });
  sql(db, 'UPDATE batches SET status = ?, ended_at = ?, reserved_free = 0, reserved_paid = 0 WHERE id = ?').run(
    batchStatuses.complete,
    now,
    batchId,
  );
  const done = loadBatch(db, batchId)!;
  recordEvent(db, now, 'batch.completed', {
    batch_id: done.id,
    name: done.name,
    summary: summaryOf(done),
    results_url: `/v1/batches/${done.id}/results`,
  });
}

/** The service gives up: every credit the batch spent or reserved goes back, and no row stays billed. */
export function failBatch(db: Database, now: number, batchId: string, message: string): void {
  transaction(db, () => {
    const batch = loadBatch(db, batchId)!;
    if (batch.status !== batchStatuses.running) return;
    const spent = db
      .prepare(
        'SELECT COALESCE(SUM(billed_free), 0) AS free, COALESCE(SUM(billed) - SUM(billed_free), 0) AS paid FROM batch_rows WHERE batch_id = ?',
      )
      .get(batchId) as { free: number; paid: number };
    refundCredits(db, now, {
      free: batch.reserved_free + spent.free,
      paid: batch.reserved_paid + spent.paid,
      freeMonth: batch.free_month,
    });
    sql(db, 'UPDATE batch_rows SET billed = 0, billed_free = 0 WHERE batch_id = ? AND billed = 1').run(batchId);
    const error = { type: assumedErrors.apiError, code: 'verification_failed', message };
    sql(
      db,
      'UPDATE batches SET status = ?, ended_at = ?, reserved_free = 0, reserved_paid = 0, c_billed = 0, error = ? WHERE id = ?',
    ).run(batchStatuses.failed, now, JSON.stringify(error), batchId);
    recordEvent(db, now, 'batch.failed', { batch_id: batch.id, name: batch.name, error });
  });
}

/** The owner cancels: what was verified stays (and stays billed); the unspent reservation goes back. */
export function cancelBatch(
  db: Database,
  now: number,
  batch: BatchRecord,
  afterCancel: (batch: BatchRecord) => void = () => {},
): BatchRecord {
  return transaction(db, () => {
    const current = loadBatch(db, batch.id)!;
    if (current.status !== batchStatuses.running) {
      throw invalidRequest(
        assumedErrors.batchNotRunning,
        `Batch ${batch.id} has already ended (${current.status}).`,
        409,
      );
    }
    refundCredits(db, now, { free: current.reserved_free, paid: current.reserved_paid, freeMonth: current.free_month });
    sql(db, 'UPDATE batches SET status = ?, ended_at = ?, reserved_free = 0, reserved_paid = 0 WHERE id = ?').run(
      batchStatuses.canceled,
      now,
      batch.id,
    );
    const canceled = loadBatch(db, batch.id)!;
    recordEvent(db, now, 'batch.canceled', {
      batch_id: canceled.id,
      name: canceled.name,
      summary: summaryOf(canceled),
    });
    afterCancel(canceled);
    return canceled;
  });
}

export function resultsExpired(config: ServiceConfig, batch: BatchRecord, now: number): boolean {
  return batch.ended_at !== null && now > batch.ended_at + config.retentionMs;
}

type StoredRow = {
  email: string;
  result: string;
  billed: number;
  role: number;
  disposable: number;
  reason: string | null;
  result_seq: number;
};

export function toResultRow(row: StoredRow): ResultRow {
  // role, disposable and reason are Sift's extras (see wire assumptions); readers must not need them.
  return {
    email: row.email,
    result: row.result,
    billed: row.billed === 1,
    role: row.role === 1,
    disposable: row.disposable === 1,
    ...(row.reason ? { reason: row.reason } : {}),
  };
}

/** Rows after `position` in result order, optionally one verdict only. */
export function readResults(
  db: Database,
  batchId: string,
  position: number,
  limit: number,
  filter?: string,
): StoredRow[] {
  const filterClause = filter === undefined ? '' : 'AND result = ?';
  const params: (string | number)[] = [batchId, position, ...(filter === undefined ? [] : [filter]), limit];
  return db
    .prepare(
      `SELECT email, result, billed, role, disposable, reason, result_seq FROM batch_rows
       WHERE batch_id = ? AND result_seq > ? ${filterClause} ORDER BY result_seq LIMIT ?`,
    )
    .all(...params) as StoredRow[];
}
