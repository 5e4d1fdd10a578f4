// The sends of each key, by operation, in one small SQLite file of the data folder: several Sift processes
// on one key (the app and a `sift clean`, or two cleans) keep the spec's per-key limits together, not each
// on its own. Keys are never stored, only a hash of each.
import { join } from 'node:path';
import { openDatabase, sql, transaction, type Database } from '../storage/sqlite.ts';

export type SendLog = {
  /**
   * Counts a send of `operation` on the budget at `now` when fewer than `limit` were counted in the last
   * `windowMs`, and answers 0; otherwise counts nothing and answers how long to wait.
   */
  take(budget: string, operation: string, limit: number, windowMs: number, now: number): number;
};

export function openSendLog(dataDir: string): SendLog {
  const db: Database = openDatabase(join(dataDir, 'send-log.sqlite'));
  // A send forgotten in a power cut costs at most one early request: no need to wait for the disk.
  db.exec('PRAGMA synchronous = NORMAL');
  db.exec(`CREATE TABLE IF NOT EXISTS sends (budget TEXT NOT NULL, operation TEXT NOT NULL, at INTEGER NOT NULL);
    CREATE INDEX IF NOT EXISTS sends_by_budget ON sends (budget, operation, at);`);
  return {
    take(budget, operation, limit, windowMs, now) {
      return transaction(db, () => {
        sql(db, 'DELETE FROM sends WHERE budget = ? AND operation = ? AND at <= ?').run(
          budget,
          operation,
          now - windowMs,
        );
        const { n, oldest } = sql(
          db,
          'SELECT COUNT(*) AS n, MIN(at) AS oldest FROM sends WHERE budget = ? AND operation = ?',
        ).get(budget, operation) as { n: number; oldest: number | null };
        if (n >= limit) return Math.max(1, oldest! + windowMs - now);
        sql(db, 'INSERT INTO sends (budget, operation, at) VALUES (?, ?, ?)').run(budget, operation, now);
        return 0;
      });
    },
  };
}
