// What is written to the verdict cache and what Settings and `sift cache` read of it: every verdict a list
// got, from any service, by the keyed hash of its address (cache-keys.ts), never the address; with the
// day it was got and which service gave it. Demo (sandbox) and live verdicts are kept apart by mode. The
// tables are in verdict-cache-schema.ts; the import's reads in verdict-cache-reader.ts.
import { existsSync, statSync } from 'node:fs';
import { sql, transaction, type Database } from '../storage/sqlite.ts';
import { modeNumber, openCacheDatabase, verdictCacheFiles, type CacheMode } from './verdict-cache-schema.ts';
import type { VerdictChanges } from '../../common/list-schemas.ts';
import { defaultMaxAgeDays } from './cache-policy.ts';
import { countChanges } from './verdict-cache-changes.ts';

export { verdictCacheFiles, type CacheMode } from './verdict-cache-schema.ts';

/** A verdict to keep: the keyed hash of its address, and what the service said. */
type CacheEntry = readonly [key: string, result: string, reason: string | null];

/** The results the cache keeps (those it may reuse), as an SQL list. */
const keptResults = Object.keys(defaultMaxAgeDays)
  .map((result) => `'${result}'`)
  .join(', ');

/** Staged rows per statement: a statement per row would cost more than the rows themselves. */
const rowsPerInsert = 100;

type CacheContents = { entries: number; live: number; sandbox: number; oldest: number | null; bytes: number };

export type VerdictCache = {
  /**
   * Keeps a list's verdicts, got at `checkedAt`, page by page (a newer verdict replaces an older one for
   * the same address and mode). They are staged first and merged in key order: a million keys inserted
   * in hash order would each land on a random page of the table, several times slower.
   */
  remember(
    mode: CacheMode,
    service: string,
    checkedAt: number,
    pages: Iterable<readonly CacheEntry[]>,
  ): { kept: number; changes?: VerdictChanges };
  /** What the cache holds, for Settings and `sift cache stats`. */
  stats(): CacheContents;
  /** Forgets every kept verdict; answers how many. */
  clear(): number;
  close(): void;
};

/** The number of a kind of verdict (made when new): one per result and reason of each list's day. */
function kindNumbers(db: Database, service: number, checkedAt: number) {
  const known = new Map<string, number>();
  return (result: string, reason: string | null): number => {
    const name = `${result}\0${reason ?? '\u0001'}`;
    let kind = known.get(name);
    if (kind === undefined) {
      const found = sql(
        db,
        'SELECT id FROM verdict_kinds WHERE checked_at = ? AND service = ? AND result = ? AND reason IS ?',
      ).get(checkedAt, service, result, reason) as { id: number } | undefined;
      kind =
        found?.id ??
        Number(
          sql(db, 'INSERT INTO verdict_kinds (result, reason, checked_at, service) VALUES (?, ?, ?, ?)').run(
            result,
            reason,
            checkedAt,
            service,
          ).lastInsertRowid,
        );
      known.set(name, kind);
    }
    return kind;
  };
}

export function openVerdictCache(dataDir: string): VerdictCache {
  const path = verdictCacheFiles(dataDir).db;
  const db = openCacheDatabase(dataDir);
  return {
    remember(mode, service, checkedAt, pages) {
      db.exec('CREATE TEMP TABLE IF NOT EXISTS incoming (key TEXT NOT NULL, kind INTEGER NOT NULL)');
      // Staged by statements of many rows, their values bound as they are (no text to take apart).
      const insertOf = (rows: number) =>
        sql(db, `INSERT INTO incoming (key, kind) VALUES ${Array(rows).fill('(?, ?)').join(', ')}`);
      const stageMany = insertOf(rowsPerInsert);
      return transaction(db, () => {
        sql(db, 'DELETE FROM incoming').run();
        sql(db, 'INSERT INTO services (url) VALUES (?) ON CONFLICT (url) DO NOTHING').run(service);
        const serviceId = (sql(db, 'SELECT id FROM services WHERE url = ?').get(service) as { id: number }).id;
        const kindOf = kindNumbers(db, serviceId, checkedAt);
        let staged = 0;
        const values: (string | number)[] = [];
        for (const page of pages) {
          for (const [key, result, reason] of page) {
            values.push(key, kindOf(result, reason));
            if (values.length === rowsPerInsert * 2) {
              stageMany.run(...values);
              values.length = 0;
            }
          }
          staged += page.length;
        }
        if (values.length > 0) insertOf(values.length / 2).run(...values);
        const changes = countChanges(db, modeNumber[mode]);
        // Unknown verdicts are compared (an address that stopped answering is a change) but never kept.
        const { changes: unknowns } = sql(
          db,
          `DELETE FROM incoming WHERE kind IN (SELECT id FROM verdict_kinds WHERE result NOT IN (${keptResults}))`,
        ).run();
        sql(
          db,
          `INSERT INTO verdicts (mode, key, kind) SELECT ?, key, kind FROM incoming WHERE true ORDER BY key
           ON CONFLICT (mode, key) DO UPDATE SET kind = excluded.kind
           WHERE (SELECT checked_at FROM verdict_kinds WHERE id = excluded.kind)
             >= (SELECT checked_at FROM verdict_kinds WHERE id = verdicts.kind)`,
        ).run(modeNumber[mode]);
        sql(db, 'DELETE FROM incoming').run();
        return { kept: staged - Number(unknowns), ...(changes ? { changes } : {}) };
      });
    },
    stats() {
      const row = sql(
        db,
        `SELECT COUNT(*) AS entries, SUM(mode = ${modeNumber.live}) AS live, SUM(mode = ${modeNumber.sandbox}) AS sandbox,
           (SELECT MIN(checked_at) FROM verdict_kinds WHERE id IN (SELECT DISTINCT kind FROM verdicts)) AS oldest
         FROM verdicts`,
      ).get() as { entries: number; live: number | null; sandbox: number | null; oldest: number | null };
      const bytes = [path, `${path}-wal`].reduce((sum, file) => sum + (existsSync(file) ? statSync(file).size : 0), 0);
      return { entries: row.entries, live: row.live ?? 0, sandbox: row.sandbox ?? 0, oldest: row.oldest, bytes };
    },
    clear() {
      const { changes } = sql(db, 'DELETE FROM verdicts').run();
      sql(db, 'DELETE FROM verdict_kinds').run();
      sql(db, 'DELETE FROM services').run();
      db.exec('VACUUM');
      return Number(changes);
    },
    close: () => db.close(),
  };
}
