// A batch's life after staging, each step one transaction: opened with a credit reservation, verdicts
// written a round at a time, then complete, failed (everything refunded) or canceled (keeps what was
// verified). Each end records its webhook event in the same transaction.
import type { SqlConnection } from '../../storage/sql-connection.ts';
import { assumedErrors, batchStatuses } from '../../wire/assumptions.ts';
import { summaryOf } from '../batch-objects.ts';
import { billableResults, type Verdict } from '../engines/engine.ts';
import type { ServiceConfig } from '../service-config.ts';
import { ServiceError } from '../service-errors.ts';
import { discardBatch, loadBatch, lockBatch, type BatchRecord } from './batches-store.ts';
import { stillPending, writeVerdicts, type VerdictWrite } from './verdict-writes-store.ts';
import { inBatchSql, rowIdSql } from './row-ids.ts';
import { refundCredits, reserveCredits } from './credits-store.ts';
import { dropQueuedBatch } from './probe-queue-store.ts';
import { dropChunks } from './work-chunks-store.ts';
import { recordEvent } from './webhooks-store.ts';

/** Reserves the credits the batch may spend and lets the worker at it, or answers 402 and drops it. */
export async function openBatch(
  db: SqlConnection,
  config: ServiceConfig,
  now: number,
  batchId: string,
  /** Runs in the same transaction, so an idempotent answer is stored together with the batch it names. */
  afterOpen: (tx: SqlConnection, batch: BatchRecord) => Promise<void> = async () => {},
): Promise<BatchRecord> {
  try {
    return await db.transaction(async (tx) => {
      const batch = (await loadBatch(tx, batchId))!;
      const toCheck = batch.unique_count - batch.done_count;
      const reservation =
        batch.mode === 'live' ? await reserveCredits(tx, config, now, toCheck) : { free: 0, paid: 0, freeMonth: '' };
      await tx.run('UPDATE batches SET status = ?, reserved_free = ?, reserved_paid = ?, free_month = ? WHERE id = ?', [
        batchStatuses.running,
        reservation.free,
        reservation.paid,
        reservation.freeMonth,
        batchId,
      ]);
      await completeIfDone(tx, now, batchId);
      const opened = (await loadBatch(tx, batchId))!;
      await afterOpen(tx, opened);
      return opened;
    });
  } catch (error) {
    await discardBatch(db, batchId);
    throw error;
  }
}

export type ProbeOutcome = { seq: number; verdict?: Verdict; error?: string };

/** Writes a round of probe outcomes for one batch in one transaction; ignores a batch that has ended meanwhile. */
export async function recordOutcomes(
  db: SqlConnection,
  config: ServiceConfig,
  now: number,
  batchId: string,
  outcomes: ProbeOutcome[],
): Promise<void> {
  await db.transaction(
    async (tx) => {
      // One at a time per batch, and locked: workers writing rounds of one batch take turns rather than
      // collide on its result order (each round numbers its verdicts on from the batch's next_result_seq).
      const batch = await lockBatch(tx, batchId);
      if (!batch || batch.status !== batchStatuses.running) return;
      let { reserved_free: reservedFree, reserved_paid: reservedPaid, next_result_seq: resultSeq } = batch;
      const counters = { valid: 0, invalid: 0, catch_all: 0, unknown: 0, role: 0, disposable: 0, billed: 0, done: 0 };
      // Only a row still without a verdict: another worker may have written this one meanwhile.
      const failAttempt = `UPDATE batch_rows SET attempts = attempts + 1 WHERE id = ${rowIdSql('?', '?')} AND result IS NULL
       RETURNING attempts`;
      let gaveUp: string | null = null;
      // Only rows still without a verdict get one (another worker, or this one before a crash, may have
      // written some): each address is written, counted and billed once.
      const pending = await stillPending(
        tx,
        batch.row_key,
        outcomes.filter((outcome) => outcome.verdict).map((outcome) => outcome.seq),
      );
      const writes: VerdictWrite[] = [];
      for (const outcome of outcomes) {
        if (!outcome.verdict) {
          const { attempts } = (await tx.get<{ attempts: number }>(failAttempt, [batch.row_key, outcome.seq]))!;
          if (attempts >= config.maxProbeAttempts) gaveUp = outcome.error ?? 'The mail host could not be checked.';
          continue;
        }
        if (!pending.delete(outcome.seq)) continue;
        const { verdict } = outcome;
        const billed = batch.mode === 'live' && billableResults.has(verdict.result);
        const fromFree = billed && reservedFree > 0;
        writes.push({ seq: outcome.seq, verdict, billed, fromFree, resultSeq });
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
      const written = await writeVerdicts(tx, batch.row_key, writes);
      if (written !== writes.length) {
        throw new Error(
          `Wrote ${written} of ${writes.length} verdicts of batch ${batchId}: its rows changed meanwhile.`,
        );
      }
      await tx.run(
        `UPDATE batches SET c_valid = c_valid + ?, c_invalid = c_invalid + ?, c_catch_all = c_catch_all + ?, c_unknown = c_unknown + ?,
       c_role = c_role + ?, c_disposable = c_disposable + ?, c_billed = c_billed + ?, done_count = done_count + ?,
       reserved_free = ?, reserved_paid = ?, next_result_seq = ? WHERE id = ?`,
        [
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
        ],
      );
      if (gaveUp) await failBatch(tx, now, batchId, gaveUp);
      else await completeIfDone(tx, now, batchId);
    },
    { oneAtATime: `batch ${batchId}` },
  );
}

/** A batch that ended (complete, failed, canceled) has nothing left for any worker or engine to pick. */
async function dropWork(db: SqlConnection, batchId: string): Promise<void> {
  await dropQueuedBatch(db, batchId);
  await dropChunks(db, batchId);
}

async function completeIfDone(db: SqlConnection, now: number, batchId: string): Promise<void> {
  const batch = (await loadBatch(db, batchId))!;
  if (batch.status !== batchStatuses.running || batch.done_count < batch.unique_count) return;
  // Whatever was reserved and not spent (it should be nothing) goes back.
  await refundCredits(db, now, { free: batch.reserved_free, paid: batch.reserved_paid, freeMonth: batch.free_month });
  await dropWork(db, batchId);
  await db.run('UPDATE batches SET status = ?, ended_at = ?, reserved_free = 0, reserved_paid = 0 WHERE id = ?', [
    batchStatuses.complete,
    now,
    batchId,
  ]);
  const done = (await loadBatch(db, batchId))!;
  await recordEvent(db, now, 'batch.completed', {
    batch_id: done.id,
    name: done.name,
    summary: summaryOf(done),
    results_url: `/v1/batches/${done.id}/results`,
  });
}

/** The service gives up: every credit the batch spent or reserved goes back, and no row stays billed. */
export async function failBatch(db: SqlConnection, now: number, batchId: string, message: string): Promise<void> {
  await db.transaction(async (tx) => {
    const batch = (await loadBatch(tx, batchId))!;
    if (batch.status !== batchStatuses.running) return;
    const spent = (await tx.get(
      `SELECT COALESCE(SUM(billed_free), 0) AS free, COALESCE(SUM(billed) - SUM(billed_free), 0) AS paid
       FROM batch_rows WHERE ${inBatchSql('?')}`,
      [batch.row_key, batch.row_key],
    )) as { free: number; paid: number };
    await refundCredits(tx, now, {
      free: batch.reserved_free + spent.free,
      paid: batch.reserved_paid + spent.paid,
      freeMonth: batch.free_month,
    });
    await tx.run(
      `UPDATE batch_rows SET billed = 0, billed_free = 0
       WHERE ${inBatchSql('?')} AND billed = 1`,
      [batch.row_key, batch.row_key],
    );
    await dropWork(tx, batchId);
    const error = { type: assumedErrors.apiError, code: 'verification_failed', message };
    await tx.run(
      'UPDATE batches SET status = ?, ended_at = ?, reserved_free = 0, reserved_paid = 0, c_billed = 0, error = ? WHERE id = ?',
      [batchStatuses.failed, now, JSON.stringify(error), batchId],
    );
    await recordEvent(tx, now, 'batch.failed', { batch_id: batch.id, name: batch.name, error });
  });
}

/** The owner cancels: what was verified stays (and stays billed); the unspent reservation goes back. */
export async function cancelBatch(
  db: SqlConnection,
  now: number,
  batch: BatchRecord,
  afterCancel: (tx: SqlConnection, batch: BatchRecord) => Promise<void> = async () => {},
): Promise<BatchRecord> {
  return db.transaction(async (tx) => {
    const current = (await loadBatch(tx, batch.id))!;
    if (current.status !== batchStatuses.running) {
      throw new ServiceError(
        'conflict',
        assumedErrors.batchNotRunning,
        `Batch ${batch.id} has already ended (${current.status}).`,
      );
    }
    await refundCredits(tx, now, {
      free: current.reserved_free,
      paid: current.reserved_paid,
      freeMonth: current.free_month,
    });
    await dropWork(tx, batch.id);
    await tx.run('UPDATE batches SET status = ?, ended_at = ?, reserved_free = 0, reserved_paid = 0 WHERE id = ?', [
      batchStatuses.canceled,
      now,
      batch.id,
    ]);
    const canceled = (await loadBatch(tx, batch.id))!;
    await recordEvent(tx, now, 'batch.canceled', {
      batch_id: canceled.id,
      name: canceled.name,
      summary: summaryOf(canceled),
    });
    await afterCancel(tx, canceled);
    return canceled;
  });
}
