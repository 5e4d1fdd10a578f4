// The do-not-mail list (<data>/suppression.sqlite), shared by the app and `sift`: addresses and whole
// domains, each with when it was added and from where (a file's name, or "by hand"). Lists are checked
// against it as they are read (suppression-matcher.ts). This module owns the file and all of its SQL.
import { join } from 'node:path';
import { openDatabase, sql, transaction, type Database } from '../storage/sqlite.ts';
import { migrateOrRestore } from '../storage/store-versions.ts';
import type { SuppressionEntry, SuppressionKind } from './suppression-entries.ts';

type SuppressedEntry = SuppressionEntry & { addedAt: number; source: string };

const suppressionFile = (dataDir: string) => join(dataDir, 'suppression.sqlite');

/** The schema version this Sift writes (store-versions.ts). */
export const suppressionVersion = 1;

const schema = `
CREATE TABLE IF NOT EXISTS entries (
  id INTEGER PRIMARY KEY, kind TEXT NOT NULL CHECK (kind IN ('address', 'domain')), value TEXT NOT NULL UNIQUE,
  added_at INTEGER NOT NULL, source TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS changes (id INTEGER PRIMARY KEY CHECK (id = 1), version INTEGER NOT NULL);
INSERT INTO changes (id, version) VALUES (1, 0) ON CONFLICT (id) DO NOTHING;
PRAGMA user_version = ${suppressionVersion}`;

export type SuppressionStore = {
  /** Adds entries (one already there is left as it was); answers how many were new. */
  add(entries: readonly SuppressionEntry[], source: string, now?: number): number;
  /** Removes entries by their normal form; answers how many there were. */
  remove(values: readonly string[]): number;
  clear(): number;
  /** A page of entries, newest first, those containing `search` when given. */
  page(request: { search: string; offset: number; limit: number }): { total: number; entries: SuppressedEntry[] };
  counts(): Record<SuppressionKind, number>;
  /** Every domain, for the matcher (a do-not-mail list names few domains). */
  domains(): string[];
  /** Every address with its id, a page at a time, for the matcher's index. */
  addresses(): Generator<{ id: number; value: string }>;
  /** The address stored under an id (how the matcher confirms a fingerprint). */
  addressOf(id: number): string | undefined;
  /** Goes up with every change: a list read before a change is read again. */
  version(): number;
  close(): void;
};

export function openSuppressionStore(dataDir: string): SuppressionStore {
  const db: Database = openDatabase(suppressionFile(dataDir));
  migrateOrRestore(suppressionFile(dataDir), db, () => db.exec(schema));
  const changed = () => sql(db, 'UPDATE changes SET version = version + 1 WHERE id = 1').run();
  const insert = sql(
    db,
    'INSERT INTO entries (kind, value, added_at, source) VALUES (?, ?, ?, ?) ON CONFLICT (value) DO NOTHING',
  );
  return {
    add(entries, source, now = Date.now()) {
      return transaction(db, () => {
        let added = 0;
        for (const entry of entries) added += Number(insert.run(entry.kind, entry.value, now, source).changes);
        if (added > 0) changed();
        return added;
      });
    },
    remove(values) {
      return transaction(db, () => {
        const { changes } = sql(db, 'DELETE FROM entries WHERE value IN (SELECT value FROM json_each(?))').run(
          JSON.stringify(values),
        );
        if (Number(changes) > 0) changed();
        return Number(changes);
      });
    },
    clear() {
      return transaction(db, () => {
        const { changes } = sql(db, 'DELETE FROM entries').run();
        changed();
        return Number(changes);
      });
    },
    page({ search, offset, limit }) {
      const pattern = `%${search
        .trim()
        .toLowerCase()
        .replace(/[\\%_]/g, (char) => `\\${char}`)}%`;
      const where = "value LIKE ? ESCAPE '\\'";
      const total = (sql(db, `SELECT COUNT(*) AS n FROM entries WHERE ${where}`).get(pattern) as { n: number }).n;
      const rows = sql(
        db,
        `SELECT kind, value, added_at AS addedAt, source FROM entries WHERE ${where} ORDER BY id DESC LIMIT ? OFFSET ?`,
      ).all(pattern, limit, offset) as SuppressedEntry[];
      return { total, entries: rows.map((row) => ({ ...row })) };
    },
    counts() {
      const rows = sql(db, 'SELECT kind, COUNT(*) AS n FROM entries GROUP BY kind').all() as {
        kind: SuppressionKind;
        n: number;
      }[];
      const counts = { address: 0, domain: 0 };
      for (const row of rows) counts[row.kind] = row.n;
      return counts;
    },
    domains: () =>
      (sql(db, "SELECT value FROM entries WHERE kind = 'domain'").all() as { value: string }[]).map((row) => row.value),
    *addresses() {
      const page = sql(db, "SELECT id, value FROM entries WHERE kind = 'address' AND id > ? ORDER BY id LIMIT 10000");
      for (let after = 0; ;) {
        const rows = page.all(after) as { id: number; value: string }[];
        if (rows.length === 0) return;
        yield* rows;
        after = rows.at(-1)!.id;
      }
    },
    addressOf: (id) =>
      (sql(db, 'SELECT value FROM entries WHERE id = ?').get(id) as { value: string } | undefined)?.value,
    version: () => (sql(db, 'SELECT version FROM changes WHERE id = 1').get() as { version: number }).version,
    close: () => db.close(),
  };
}
