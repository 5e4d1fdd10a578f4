// The live engine's work queue: every pending address of a running live batch, by domain, with the time
// it may next be tried. A domain is one unit of work (its addresses share a mail server and a
// connection); `probe_domains` says when each domain is next due, so picking work costs the same with
// ten pending addresses or a million.
import { sql, transaction, type Database } from '../../storage/sqlite.ts';
import { batchStatuses } from '../../wire/assumptions.ts';
import { inBatchSql, rowIdSql, rowKeyOfSql, seqMask } from './row-ids.ts';

export type QueuedAddress = { batchId: string; seq: number; email: string; tries: number };

/** Puts a live batch's pending addresses in the queue, once (a restart finds it already queued). */
export function enqueueLiveBatches(db: Database, now: number): number {
  const waiting = sql(db, 'SELECT id FROM batches WHERE status = ? AND mode = ? AND queued = 0').all(
    batchStatuses.running,
    'live',
  ) as { id: string }[];
  for (const { id } of waiting) {
    transaction(db, () => {
      sql(
        db,
        `INSERT OR IGNORE INTO probe_queue (row_id, domain, not_before)
         SELECT id, host, ? FROM batch_rows WHERE ${inBatchSql(rowKeyOfSql)} AND result IS NULL`,
      ).run(now, id, id);
      sql(
        db,
        `INSERT INTO probe_domains (domain, next_at)
         SELECT DISTINCT host, ? FROM batch_rows WHERE ${inBatchSql(rowKeyOfSql)} AND result IS NULL
         ON CONFLICT (domain) DO UPDATE SET next_at = MIN(next_at, excluded.next_at)`,
      ).run(now, id, id);
      sql(db, 'UPDATE batches SET queued = 1 WHERE id = ?').run(id);
    });
  }
  return waiting.length;
}

/** Domains with work due now, longest waiting first. */
export function dueDomains(db: Database, now: number, limit: number): string[] {
  return (
    sql(db, 'SELECT domain FROM probe_domains WHERE next_at <= ? ORDER BY next_at LIMIT ?').all(now, limit) as {
      domain: string;
    }[]
  ).map((row) => row.domain);
}

/**
 * Takes up to `limit` of a domain's due addresses and holds the domain until `leaseUntil` (so it is not
 * picked twice while its probe runs; after a crash the lease runs out and the work is picked again).
 * A domain with nothing due is rescheduled for its next due address, or dropped when it has none.
 */
export function takeDomainWork(
  db: Database,
  domain: string,
  now: number,
  limit: number,
  leaseUntil: number,
): QueuedAddress[] {
  return transaction(db, () => {
    const rows = sql(
      db,
      `SELECT b.id AS batchId, q.row_id & ${seqMask} AS seq, r.email AS email, q.tries AS tries
       FROM probe_queue q JOIN batch_rows r ON r.id = q.row_id JOIN batches b ON b.row_key = q.row_id >> 32
       WHERE q.domain = ? AND q.not_before <= ? ORDER BY q.not_before, q.row_id LIMIT ?`,
    ).all(domain, now, limit) as QueuedAddress[];
    if (rows.length > 0) {
      sql(db, 'UPDATE probe_domains SET next_at = ? WHERE domain = ?').run(leaseUntil, domain);
      return rows;
    }
    rescheduleDomain(db, domain);
    return [];
  });
}

/** The domain is next due with its earliest queued address; with none left it leaves the queue. */
export function rescheduleDomain(db: Database, domain: string, notBefore?: number): void {
  const next = (
    sql(db, 'SELECT MIN(not_before) AS next FROM probe_queue WHERE domain = ?').get(domain) as { next: number | null }
  ).next;
  if (next === null) sql(db, 'DELETE FROM probe_domains WHERE domain = ?').run(domain);
  else sql(db, 'UPDATE probe_domains SET next_at = ? WHERE domain = ?').run(Math.max(next, notBefore ?? 0), domain);
}

/** Addresses that got their verdict leave the queue. */
export function dequeue(db: Database, rows: readonly { batchId: string; seq: number }[]): void {
  const remove = sql(db, `DELETE FROM probe_queue WHERE row_id = ${rowIdSql(rowKeyOfSql, '?')}`);
  for (const row of rows) remove.run(row.batchId, row.seq);
}

/** Addresses to try again later, each one try further along. */
export function requeue(db: Database, rows: readonly { batchId: string; seq: number; notBefore: number }[]): void {
  const later = sql(
    db,
    `UPDATE probe_queue SET not_before = ?, tries = tries + 1 WHERE row_id = ${rowIdSql(rowKeyOfSql, '?')}`,
  );
  for (const row of rows) later.run(row.notBefore, row.batchId, row.seq);
}

/** A batch that ended (complete, canceled, failed) has nothing left to probe. */
export function dropQueuedBatch(db: Database, batchId: string): void {
  sql(db, `DELETE FROM probe_queue WHERE ${inBatchSql(rowKeyOfSql, 'row_id')}`).run(batchId, batchId);
}

/** Whether any running batch still has queued work: the worker sleeps longer when it has none. */
export function nextDueAt(db: Database): number | undefined {
  const row = sql(db, 'SELECT MIN(next_at) AS next FROM probe_domains').get() as { next: number | null };
  return row.next ?? undefined;
}

/**
 * Everything queued becomes due now (when port 25 is found blocked, waiting helps no address), except
 * the domains a conversation is working on, whose leases stand.
 */
export function makeAllDueNow(db: Database, now: number, busyDomains: readonly string[]): void {
  transaction(db, () => {
    sql(db, 'UPDATE probe_queue SET not_before = ? WHERE not_before > ?').run(now, now);
    sql(
      db,
      'UPDATE probe_domains SET next_at = ? WHERE next_at > ? AND domain NOT IN (SELECT value FROM json_each(?))',
    ).run(now, now, JSON.stringify(busyDomains));
  });
}
