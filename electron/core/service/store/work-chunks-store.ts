// A running batch's rows in chunks of consecutive seqs, for the batch worker: a worker claims chunks for
// a short while (a lease), renews the lease while it works them, and hands them back, done or not. A chunk
// is held by one worker at a time; a worker that dies holds its chunks only until the lease it last
// renewed ends. (A worker that could not renew in time may find its chunk taken: its rows are then
// checked twice, but written and billed once.) On PostgreSQL the claim skips chunks another worker is claiming at
// that moment (SKIP LOCKED), so workers never queue behind one another; SQLite has one writer.
import type { SqlConnection } from '../../storage/sql-connection.ts';
import { rowIdSql, rowKeyOfSql } from './row-ids.ts';
import { livingProcessesSql } from './service-processes-store.ts';

/** Rows per chunk. */
export const chunkRows = 1000;

export type ChunkRange = { chunk: number; firstSeq: number; lastSeq: number };
/** A claimed chunk; `takenFrom` names the process whose lease on it ran out before it handed it back. */
export type ClaimedChunk = ChunkRange & { takenFrom?: string };

const chunkRange = (chunk: number): ChunkRange => ({
  chunk,
  firstSeq: chunk * chunkRows + 1,
  lastSeq: (chunk + 1) * chunkRows,
});

/** Makes a running batch's chunks if they are not there yet (every worker may ask; the first makes them). */
export async function makeChunks(db: SqlConnection, batchId: string, submitted: number): Promise<void> {
  const count = Math.ceil(submitted / chunkRows);
  for (let from = 0; from < count; from += 500) {
    const chunks = Array.from({ length: Math.min(500, count - from) }, (_, i) => from + i);
    await db.run(
      `INSERT INTO work_chunks (batch_id, chunk) VALUES ${chunks.map(() => '(?, ?)').join(', ')}
       ON CONFLICT DO NOTHING`,
      chunks.flatMap((chunk) => [batchId, chunk]),
    );
  }
}

/**
 * Claims up to `limit` of the batch's chunks that are not done and not held, first ones first. A chunk is
 * held until its lease ends or its holder is gone from the living processes, whichever comes first.
 */
export async function claimChunks(
  db: SqlConnection,
  batchId: string,
  owner: string,
  now: number,
  leaseUntil: number,
  limit: number,
): Promise<ClaimedChunk[]> {
  return db.transaction(async (tx) => {
    // The holder before, if any: a chunk handed back has none, one whose lease ran out names its holder.
    const picked = await tx.all<{ chunk: number; previous: string | null }>(
      `SELECT chunk, owner AS previous FROM work_chunks WHERE batch_id = ? AND done = 0
       AND (lease_until <= ? OR owner IS NULL OR owner NOT IN (${livingProcessesSql}))
       ORDER BY chunk LIMIT ? ${tx.dialect.skipLocked}`,
      [batchId, now, limit],
    );
    if (picked.length === 0) return [];
    await tx.run(
      `UPDATE work_chunks SET owner = ?, lease_until = ? WHERE batch_id = ?
       AND chunk IN (SELECT CAST(value AS INTEGER) FROM (${tx.dialect.jsonList}) AS list)`,
      [owner, leaseUntil, batchId, JSON.stringify(picked.map((row) => row.chunk))],
    );
    return picked
      .map((row) => ({ ...chunkRange(row.chunk), ...(row.previous ? { takenFrom: row.previous } : {}) }))
      .sort((a, b) => a.chunk - b.chunk);
  });
}

/** The worker still works these chunks: their lease runs on to `leaseUntil` (only where it still holds them). */
export async function renewChunks(
  db: SqlConnection,
  batchId: string,
  owner: string,
  chunks: readonly ChunkRange[],
  leaseUntil: number,
): Promise<void> {
  if (chunks.length === 0) return;
  await db.run(
    `UPDATE work_chunks SET lease_until = ? WHERE batch_id = ? AND owner = ? AND chunk IN (SELECT CAST(value AS INTEGER) FROM (${db.dialect.jsonList}) AS list)`,
    [leaseUntil, batchId, owner, JSON.stringify(chunks.map((range) => range.chunk))],
  );
}

/**
 * Hands a chunk back: done when none of its rows is still pending, else free for the next claim (its rows
 * whose probe failed are tried again). Only by the worker that holds it: a worker whose lease ran out and
 * whose chunk another worker took changes nothing here.
 */
export async function releaseChunk(db: SqlConnection, batchId: string, owner: string, range: ChunkRange) {
  await db.run(
    `UPDATE work_chunks SET owner = NULL, lease_until = 0, done = CASE WHEN EXISTS (
       SELECT 1 FROM batch_rows WHERE id BETWEEN ${rowIdSql(rowKeyOfSql, '?')} AND ${rowIdSql(rowKeyOfSql, '?')}
       AND result IS NULL) THEN 0 ELSE 1 END
     WHERE batch_id = ? AND chunk = ? AND owner = ?`,
    [batchId, range.firstSeq, batchId, range.lastSeq, batchId, range.chunk, owner],
  );
}

/** A batch that is no longer running has no chunks to work. */
export async function dropChunks(db: SqlConnection, batchId: string): Promise<void> {
  await db.run('DELETE FROM work_chunks WHERE batch_id = ?', [batchId]);
}
