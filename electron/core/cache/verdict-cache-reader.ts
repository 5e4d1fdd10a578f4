// The verdict cache's reads for an import, on a read-only connection of its own (the import's writer
// thread asks as it stores each chunk): key by key for a short list, or, for a list large next to the
// cache, every verdict it may reuse loaded at once into a table in memory (verdict-table.ts). A cache
// never written yet answers nothing.
import { existsSync } from 'node:fs';
import { openDatabaseReadOnly, type Database } from '../storage/sqlite.ts';
import {
  isCurrentVersion,
  modeNumber,
  openCacheDatabase,
  verdictCacheFiles,
  type CacheMode,
} from './verdict-cache-schema.ts';
import { verdictTableBuilder, type VerdictTable } from './verdict-table.ts';

/**
 * A verdict kept from an earlier list; `stale`: too old to reuse, and valid then (a list's new check of the
 * address is scored knowing it was valid at that earlier check).
 */
export type CachedVerdict = { result: string; reason: string | null; checkedAt: number; stale?: true };

/** The oldest each verdict may be (a time, in ms) to be reused; a verdict not named is never reused. */
type FreshSince = Readonly<Record<string, number>>;

/** A table of the verdicts that may be reused, and what each kind of them is. */
export type LoadedVerdicts = { table: VerdictTable; kinds: ReadonlyMap<number, CachedVerdict> };

/** Key ranges loaded one at a time (by the key's first hex digit), so only a sixteenth is ever text. */
const loadRanges = [...'0123456789abcdef'].map((digit, i, all) => [digit, all[i + 1] ?? 'g'] as const);

function openReadable(dataDir: string): Database | undefined {
  const path = verdictCacheFiles(dataDir).db;
  if (!existsSync(path)) return undefined;
  let db = openDatabaseReadOnly(path);
  if (!isCurrentVersion(db)) {
    // Made by an older Sift: brought up to date once, on a connection that may write.
    db.close();
    openCacheDatabase(dataDir).close();
    db = openDatabaseReadOnly(path);
  }
  return db;
}

export function openCacheReader(dataDir: string) {
  const db = openReadable(dataDir);
  // The keys drive the join (CROSS JOIN keeps that order): each is one look into the table's key.
  const select = db?.prepare(
    `SELECT wanted.value, kinds.result, kinds.reason, kinds.checked_at
     FROM json_each(?) AS wanted CROSS JOIN verdicts ON verdicts.mode = ? AND verdicts.key = wanted.value
     CROSS JOIN verdict_kinds AS kinds ON kinds.id = verdicts.kind`,
  );
  select?.setReturnArrays(true);
  const isFresh = (verdict: CachedVerdict, freshSince: FreshSince) => {
    const since = freshSince[verdict.result];
    return since !== undefined && verdict.checkedAt >= since;
  };
  /** The verdict as the import takes it: fresh, reused; valid but too old, history; anything else, nothing. */
  const asFound = (verdict: CachedVerdict, freshSince: FreshSince): CachedVerdict | undefined => {
    if (isFresh(verdict, freshSince)) return verdict;
    return verdict.result === 'valid' ? { ...verdict, stale: true } : undefined;
  };
  return {
    /** The kept verdicts of these keys in this mode that are fresh, and those valid once but too old to reuse. */
    lookup(mode: CacheMode, keys: readonly string[], freshSince: FreshSince): Map<string, CachedVerdict> {
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
        const verdict = asFound({ result, reason, checkedAt }, freshSince);
        if (verdict) found.set(key, verdict);
      }
      return found;
    },

    /**
     * Every fresh verdict of this mode (and every valid one too old to reuse), loaded into memory: one scan
     * of the cache, done in SQLite, a few tenths of a second per million. Undefined when the cache did not
     * give its keys in order.
     */
    load(mode: CacheMode, freshSince: FreshSince): LoadedVerdicts | undefined {
      const kinds = new Map<number, CachedVerdict>();
      for (const row of db?.prepare('SELECT id, result, reason, checked_at FROM verdict_kinds').all() ?? []) {
        const { id, result, reason, checked_at } = row as {
          id: number;
          result: string;
          reason: string | null;
          checked_at: number;
        };
        const verdict = asFound({ result, reason, checkedAt: checked_at }, freshSince);
        if (verdict) kinds.set(id, verdict);
      }
      // The kinds' numbers written into the query (they are SQLite's own integers): a json_each list would
      // cost more per row than the scan.
      const inMode = `mode = ${modeNumber[mode]} AND kind IN (${[...kinds.keys()].join(', ')})`;
      const count = db
        ? (db.prepare(`SELECT COUNT(*) AS n FROM verdicts WHERE ${inMode}`).get() as { n: number }).n
        : 0;
      const builder = verdictTableBuilder(count);
      if (db && count > 0) {
        const run = db.prepare(
          `SELECT group_concat(substr(key, 1, 16), '') AS keys, group_concat(kind, ',') AS kinds
           FROM verdicts WHERE ${inMode} AND key >= ? AND key < ?`,
        );
        for (const [from, to] of loadRanges) {
          const { keys, kinds: kindList } = run.get(from, to) as { keys: string | null; kinds: string | null };
          if (keys && kindList) builder.add(keys, kindList);
        }
      }
      const table = builder.done();
      return table && { table, kinds };
    },

    /** About how many verdicts the cache keeps, of both modes, from its size on disk. */
    estimatedEntries(): number {
      if (!db) return 0;
      const pages =
        (db.prepare('PRAGMA page_count').get() as { page_count: number }).page_count -
        (db.prepare('PRAGMA freelist_count').get() as { freelist_count: number }).freelist_count;
      const pageSize = (db.prepare('PRAGMA page_size').get() as { page_size: number }).page_size;
      // A kept verdict takes about 45 bytes of its table's pages.
      return Math.ceil((pages * pageSize) / 45);
    },

    /** Whether it keeps any verdict of this mode (none: a list need not even be keyed). */
    holdsAny: (mode: CacheMode) =>
      db !== undefined &&
      (
        db.prepare('SELECT EXISTS (SELECT 1 FROM verdicts WHERE mode = ?) AS held').get(modeNumber[mode]) as {
          held: number;
        }
      ).held === 1,
    close: () => db?.close(),
  };
}
