// The verdict cache (<data>/verdict-cache.sqlite), shared by the app and `sift clean` on this data folder:
// every verdict a list got, from any service, by the keyed hash of its address (cache-keys.ts), never the
// address; with the day it was got and which service gave it. Demo (sandbox) and live verdicts are kept
// apart by mode. This module owns the file and all of its SQL.
import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { openDatabase, openDatabaseReadOnly, sql, transaction, type Database } from '../storage/sqlite.ts';

export type CacheMode = 'live' | 'sandbox';

/** A verdict kept from an earlier list. */
export type CachedVerdict = { result: string; reason: string | null; checkedAt: number };

/** A verdict to keep: the keyed hash of its address, and what the service said when. */
type CacheEntry = { key: string; result: string; reason: string | null; checkedAt: number };

type CacheContents = { entries: number; live: number; sandbox: number; oldest: number | null; bytes: number };

/** Where the cache and its secret live in a data folder. */
export const verdictCacheFiles = (dataDir: string) => ({
  db: join(dataDir, 'verdict-cache.sqlite'),
  secret: join(dataDir, 'verdict-cache.secret'),
});

/** Modes as stored: a number per row is a fifth of what the word would take on a million rows. */
const modeNumber: Record<CacheMode, number> = { live: 0, sandbox: 1 };

const schema = `
CREATE TABLE IF NOT EXISTS services (id INTEGER PRIMARY KEY, url TEXT NOT NULL UNIQUE);
CREATE TABLE IF NOT EXISTS verdicts (
  mode INTEGER NOT NULL, key TEXT NOT NULL, result TEXT NOT NULL, reason TEXT,
  checked_at INTEGER NOT NULL, service INTEGER NOT NULL REFERENCES services (id), PRIMARY KEY (mode, key)
) WITHOUT ROWID;
PRAGMA user_version = 1`;

/** Rows per multi-row INSERT into the staging table. */
const stageGroup = 32;

export type VerdictCache = {
  /**
   * Keeps a list's verdicts, page by page (a newer verdict replaces an older one for the same address and
   * mode). They are staged first and merged in key order: a million keys inserted in hash order would
   * each land on a random page of the table, several times slower.
   */
  remember(mode: CacheMode, service: string, pages: Iterable<readonly CacheEntry[]>): number;
  /** What the cache holds, for Settings and `sift cache stats`. */
  stats(): CacheContents;
  /** Forgets every kept verdict; answers how many. */
  clear(): number;
  close(): void;
};

export function openVerdictCache(dataDir: string): VerdictCache {
  const path = verdictCacheFiles(dataDir).db;
  const db: Database = openDatabase(path);
  // A verdict lost in a power cut is checked again next time: no need to wait for the disk on each write.
  db.exec('PRAGMA synchronous = NORMAL');
  db.exec(schema);
  return {
    remember(mode, service, pages) {
      db.exec(
        'CREATE TEMP TABLE IF NOT EXISTS incoming (key TEXT NOT NULL, result TEXT NOT NULL, reason TEXT, checked_at INTEGER NOT NULL)',
      );
      const stage = sql(db, `INSERT INTO incoming VALUES ${Array(stageGroup).fill('(?, ?, ?, ?)').join(', ')}`);
      const stageOne = sql(db, 'INSERT INTO incoming VALUES (?, ?, ?, ?)');
      return transaction(db, () => {
        sql(db, 'DELETE FROM incoming').run();
        sql(db, 'INSERT INTO services (url) VALUES (?) ON CONFLICT (url) DO NOTHING').run(service);
        const serviceId = (sql(db, 'SELECT id FROM services WHERE url = ?').get(service) as { id: number }).id;
        const args: (string | number | null)[] = [];
        let staged = 0;
        for (const page of pages) {
          for (const entry of page) {
            args.push(entry.key, entry.result, entry.reason, entry.checkedAt);
            if (args.length === stageGroup * 4) {
              stage.run(...args);
              args.length = 0;
            }
          }
          staged += page.length;
        }
        for (let at = 0; at < args.length; at += 4) stageOne.run(...args.slice(at, at + 4));
        sql(
          db,
          `INSERT INTO verdicts (mode, key, result, reason, checked_at, service)
           SELECT ?, key, result, reason, checked_at, ? FROM incoming WHERE true ORDER BY key
           ON CONFLICT (mode, key) DO UPDATE SET result = excluded.result, reason = excluded.reason,
             checked_at = excluded.checked_at, service = excluded.service
           WHERE excluded.checked_at >= verdicts.checked_at`,
        ).run(modeNumber[mode], serviceId);
        sql(db, 'DELETE FROM incoming').run();
        return staged;
      });
    },
    stats() {
      const row = sql(
        db,
        `SELECT COUNT(*) AS entries, SUM(mode = ${modeNumber.live}) AS live, SUM(mode = ${modeNumber.sandbox}) AS sandbox,
           MIN(checked_at) AS oldest FROM verdicts`,
      ).get() as { entries: number; live: number | null; sandbox: number | null; oldest: number | null };
      const bytes = [path, `${path}-wal`].reduce((sum, file) => sum + (existsSync(file) ? statSync(file).size : 0), 0);
      return { entries: row.entries, live: row.live ?? 0, sandbox: row.sandbox ?? 0, oldest: row.oldest, bytes };
    },
    clear() {
      const { changes } = sql(db, 'DELETE FROM verdicts').run();
      sql(db, 'DELETE FROM services').run();
      db.exec('VACUUM');
      return Number(changes);
    },
    close: () => db.close(),
  };
}

/**
 * The cache's reads on a read-only connection of their own (the import's writer thread asks as it stores
 * each chunk); a cache never written yet answers nothing.
 */
export function openCacheReader(dataDir: string): {
  /** The kept verdicts of these keys in this mode that are fresh (`freshSince`: the oldest allowed, by verdict). */
  lookup(
    mode: CacheMode,
    keys: readonly string[],
    freshSince: Readonly<Record<string, number>>,
  ): Map<string, CachedVerdict>;
  /** Whether it keeps any verdict of this mode (none: a list need not even be keyed). */
  holdsAny(mode: CacheMode): boolean;
  close(): void;
} {
  const path = verdictCacheFiles(dataDir).db;
  const db = existsSync(path) ? openDatabaseReadOnly(path) : undefined;
  // The keys drive the join (CROSS JOIN keeps that order): each is one look into the table's key.
  const select = db?.prepare(
    `SELECT wanted.value, verdicts.result, verdicts.reason, verdicts.checked_at
     FROM json_each(?) AS wanted CROSS JOIN verdicts ON verdicts.mode = ? AND verdicts.key = wanted.value`,
  );
  select?.setReturnArrays(true);
  return {
    lookup(mode, keys, freshSince) {
      const found = new Map<string, CachedVerdict>();
      if (!select || keys.length === 0) return found;
      // In key order, the looks walk the table's pages in order.
      const rows = select.all(JSON.stringify([...keys].sort()), modeNumber[mode]) as unknown as [
        string,
        string,
        string | null,
        number,
      ][];
      for (const [key, result, reason, checkedAt] of rows) {
        const since = freshSince[result];
        if (since !== undefined && checkedAt >= since) found.set(key, { result, reason, checkedAt });
      }
      return found;
    },
    holdsAny: (mode) =>
      db !== undefined &&
      (
        db.prepare('SELECT EXISTS (SELECT 1 FROM verdicts WHERE mode = ?) AS held').get(modeNumber[mode]) as {
          held: number;
        }
      ).held === 1,
    close: () => db?.close(),
  };
}
