// The live engine's work queue: every pending address of a running live batch, by domain, with the time
// it may next be tried. A domain is one unit of work (its addresses share a mail server and a
// connection); `probe_domains` says when each domain is next due, so picking work costs the same with
// ten pending addresses or a million.
import type { SqlConnection } from '../../storage/sql-connection.ts';
import { batchStatuses } from '../../wire/assumptions.ts';
import { inBatchSql, rowIdSql, rowKeyOfSql, seqMask } from './row-ids.ts';

export type QueuedAddress = { batchId: string; seq: number; email: string; tries: number };

/** Puts a live batch's pending addresses in the queue, once (a restart finds it already queued). */
export async function enqueueLiveBatches(db: SqlConnection, now: number): Promise<number> {
  const waiting = await db.all<{ id: string }>('SELECT id FROM batches WHERE status = ? AND mode = ? AND queued = 0', [
    batchStatuses.running,
    'live',
  ]);
  for (const { id } of waiting) {
    await db.transaction(async (tx) => {
      // Still running and not queued: the batch may have ended (or been queued) since the list was read.
      const still = await tx.get('SELECT id FROM batches WHERE id = ? AND status = ? AND queued = 0', [
        id,
        batchStatuses.running,
      ]);
      if (!still) return;
      await tx.run(
        `INSERT INTO probe_queue (row_id, domain, not_before)
         SELECT id, host, CAST(? AS DOUBLE PRECISION) FROM batch_rows WHERE ${inBatchSql(rowKeyOfSql)} AND result IS NULL
         ON CONFLICT DO NOTHING`,
        [now, id, id],
      );
      await tx.run(
        `INSERT INTO probe_domains (domain, next_at)
         SELECT DISTINCT host, CAST(? AS DOUBLE PRECISION) FROM batch_rows WHERE ${inBatchSql(rowKeyOfSql)} AND result IS NULL
         ON CONFLICT (domain) DO UPDATE SET next_at =
           CASE WHEN probe_domains.next_at < excluded.next_at THEN probe_domains.next_at ELSE excluded.next_at END`,
        [now, id, id],
      );
      await tx.run('UPDATE batches SET queued = 1 WHERE id = ?', [id]);
    });
  }
  return waiting.length;
}

/** Domains with work due now, longest waiting first. */
export async function dueDomains(db: SqlConnection, now: number, limit: number): Promise<string[]> {
  const rows = await db.all<{ domain: string }>(
    'SELECT domain FROM probe_domains WHERE next_at <= ? ORDER BY next_at LIMIT ?',
    [now, limit],
  );
  return rows.map((row) => row.domain);
}

/** A domain's addresses due by a time, the longest waiting first, up to a number. */
const dueWorkSql = `SELECT b.id AS "batchId", q.row_id & ${seqMask} AS seq, r.email AS email, q.tries AS tries
  FROM probe_queue q JOIN batch_rows r ON r.id = q.row_id JOIN batches b ON b.row_key = q.row_id >> 32
  WHERE q.domain = ? AND q.not_before <= ? ORDER BY q.not_before, q.row_id LIMIT ?`;

/**
 * Up to `limit` more of a domain's due addresses than the conversation was given (`taken`), for an answer
 * that holds for every address of the domain now (a refusal of the sender). The caller holds the domain.
 */
export async function moreDueWork(
  db: SqlConnection,
  domain: string,
  now: number,
  taken: readonly QueuedAddress[],
  limit: number,
): Promise<QueuedAddress[]> {
  const rows = await db.all<QueuedAddress>(dueWorkSql, [domain, now, limit + taken.length]);
  const given = new Set(taken.map((item) => `${item.batchId}\n${item.seq}`));
  return rows.filter((row) => !given.has(`${row.batchId}\n${row.seq}`)).slice(0, limit);
}

/** A domain's work, and the process whose lease on it ran out before it finished (a takeover). */
export type DomainWork = { items: QueuedAddress[]; takenFrom?: string };

/**
 * Takes up to `limit` of a domain's due addresses and holds the domain for `owner` until `leaseUntil` (so
 * it is not picked twice while its probe runs; the holder renews the lease while it works, and after a
 * crash the lease runs out and the work is picked again). A domain with nothing due is rescheduled for
 * its next due address, or dropped when it has none.
 */
export async function takeDomainWork(
  db: SqlConnection,
  domain: string,
  now: number,
  limit: number,
  lease: { owner: string; until: number },
): Promise<DomainWork> {
  return db.transaction(async (tx) => {
    // Still due: another process may have taken the domain since the caller listed it.
    const due = await tx.get<{ owner: string | null }>(
      'SELECT lease_owner AS owner FROM probe_domains WHERE domain = ? AND next_at <= ?',
      [domain, now],
    );
    if (!due) return { items: [] };
    const rows = await tx.all<QueuedAddress>(dueWorkSql, [domain, now, limit]);
    if (rows.length > 0) {
      await tx.run('UPDATE probe_domains SET next_at = ?, lease_owner = ? WHERE domain = ?', [
        lease.until,
        lease.owner,
        domain,
      ]);
      return { items: rows, ...(due.owner ? { takenFrom: due.owner } : {}) };
    }
    await rescheduleDomain(tx, domain);
    return { items: [] };
  });
}

/** The domains `owner` is still working: their leases run on to `until` (only where it still holds them). */
export async function renewDomainLeases(
  db: SqlConnection,
  owner: string,
  domains: readonly string[],
  until: number,
): Promise<void> {
  if (domains.length === 0) return;
  await db.run(`UPDATE probe_domains SET next_at = ? WHERE lease_owner = ? AND domain IN (${db.dialect.jsonList})`, [
    until,
    owner,
    JSON.stringify(domains),
  ]);
}

/**
 * The domain is next due with its earliest queued address, and no longer held; with none left it leaves
 * the queue.
 */
export async function rescheduleDomain(db: SqlConnection, domain: string, notBefore?: number): Promise<void> {
  const { next } = (await db.get<{ next: number | null }>(
    'SELECT MIN(not_before) AS next FROM probe_queue WHERE domain = ?',
    [domain],
  ))!;
  if (next === null) await db.run('DELETE FROM probe_domains WHERE domain = ?', [domain]);
  else {
    await db.run('UPDATE probe_domains SET next_at = ?, lease_owner = NULL WHERE domain = ?', [
      Math.max(next, notBefore ?? 0),
      domain,
    ]);
  }
}

/** Addresses that got their verdict leave the queue. */
export async function dequeue(db: SqlConnection, rows: readonly { batchId: string; seq: number }[]): Promise<void> {
  const remove = `DELETE FROM probe_queue WHERE row_id = ${rowIdSql(rowKeyOfSql, '?')}`;
  for (const row of rows) await db.run(remove, [row.batchId, row.seq]);
}

/** Addresses to try again later, each one try further along unless `noTry` (a server still teaching its pace, or one that wants a recipient alone). */
export async function requeue(
  db: SqlConnection,
  rows: readonly { batchId: string; seq: number; notBefore: number; noTry?: boolean }[],
): Promise<void> {
  const later = `UPDATE probe_queue SET not_before = ?, tries = tries + ? WHERE row_id = ${rowIdSql(rowKeyOfSql, '?')}`;
  for (const row of rows) await db.run(later, [row.notBefore, row.noTry ? 0 : 1, row.batchId, row.seq]);
}

/** A batch that ended (complete, canceled, failed) has nothing left to probe. */
export async function dropQueuedBatch(db: SqlConnection, batchId: string): Promise<void> {
  await db.run(`DELETE FROM probe_queue WHERE ${inBatchSql(rowKeyOfSql, 'row_id')}`, [batchId, batchId]);
}

/**
 * Everything queued becomes due now (when port 25 is found blocked, waiting helps no address), except
 * the domains a conversation is working on, whose leases stand.
 */
export async function makeAllDueNow(db: SqlConnection, now: number, busyDomains: readonly string[]): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.run('UPDATE probe_queue SET not_before = ? WHERE not_before > ?', [now, now]);
    await tx.run(`UPDATE probe_domains SET next_at = ? WHERE next_at > ? AND domain NOT IN (${tx.dialect.jsonList})`, [
      now,
      now,
      JSON.stringify(busyDomains),
    ]);
  });
}

/** One domain's queued work: all of it (every batch shares the mail server), this batch's part, and when the last may go. */
export type DomainLoad = { domain: string; pending: number; mine: number; latestAt: number };

/** Every queued domain's load, with what of it belongs to the batch whose row key is `rowKey`. */
export async function queuedLoads(db: SqlConnection, rowKey: number): Promise<DomainLoad[]> {
  return db.all<DomainLoad>(
    `SELECT domain, COUNT(*) AS pending,
       SUM(CASE WHEN ${inBatchSql('CAST(? AS BIGINT)', 'row_id')} THEN 1 ELSE 0 END) AS mine,
       MAX(not_before) AS "latestAt"
     FROM probe_queue GROUP BY domain`,
    [rowKey, rowKey],
  );
}
