// The do-not-mail list (<data>/suppression.sqlite), shared by the app and `sift`: addresses and whole
// domains, each with when it was added and from where (a file's name, or "by hand"). Lists are checked
// against it as they are read (suppression-matcher.ts). This module owns the file and all of its SQL.
import { join } from 'node:path';
import { openDatabase, sql, transaction, type Database } from '../storage/sqlite.ts';
import { migrateOrRestore } from '../storage/store-versions.ts';
import type { SuppressionEntry, SuppressionKind } from './suppression-entries.ts';

/** Why an entry is there, when it is not just a person's say-so: a bounce, with the server's words. */
type EntryWhy = { reason: string; detail?: string };
type SuppressedEntry = SuppressionEntry & { addedAt: number; source: string } & Partial<EntryWhy>;

const suppressionFile = (dataDir: string) => join(dataDir, 'suppression.sqlite');

/** The schema version this Sift writes (store-versions.ts). */
export const suppressionVersion = 2;

const schema = `
CREATE TABLE IF NOT EXISTS entries (
  id INTEGER PRIMARY KEY, kind TEXT NOT NULL CHECK (kind IN ('address', 'domain')), value TEXT NOT NULL UNIQUE,
  added_at INTEGER NOT NULL, source TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS changes (id INTEGER PRIMARY KEY CHECK (id = 1), version INTEGER NOT NULL);
INSERT INTO changes (id, version) VALUES (1, 0) ON CONFLICT (id) DO NOTHING`;

/** Version 2: why an entry is there ("bounced") and the words that said so (outcomes/). */
const whyColumns = 'ALTER TABLE entries ADD COLUMN reason TEXT; ALTER TABLE entries ADD COLUMN detail TEXT;';

function migrate(db: Database): void {
  transaction(db, () => {
    const version = (db.prepare('PRAGMA user_version').get() as { user_version: number }).user_version;
    if (version >= suppressionVersion) return;
    db.exec(schema);
    db.exec(whyColumns);
    db.exec(`PRAGMA user_version = ${suppressionVersion}`);
  });
}

export type SuppressionStore = {
  /** Adds entries (one already there is left as it was); answers how many were new. */
  add(entries: readonly (SuppressionEntry & Partial<EntryWhy>)[], source: string, now?: number): number;
  /** Removes entries by their normal form; answers how many there were. */
  remove(values: readonly string[]): number;
  /** Removes the entries a bounce put there (reason "bounced"), never one a person added. */
  removeBounced(values: readonly string[]): number;
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
  migrateOrRestore(suppressionFile(dataDir), db, () => migrate(db));
  const changed = () => sql(db, 'UPDATE changes SET version = version + 1 WHERE id = 1').run();
  const insert = sql(
    db,
    `INSERT INTO entries (kind, value, added_at, source, reason, detail) VALUES (?, ?, ?, ?, ?, ?)
     ON CONFLICT (value) DO NOTHING`,
  );
  return {
    add(entries, source, now = Date.now()) {
      return transaction(db, () => {
        let added = 0;
        for (const entry of entries)
          added += Number(
            insert.run(entry.kind, entry.value, now, source, entry.reason ?? null, entry.detail ?? null).changes,
          );
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
    removeBounced(values) {
      return transaction(db, () => {
        const { changes } = sql(
          db,
          "DELETE FROM entries WHERE value IN (SELECT value FROM json_each(?)) AND reason = 'bounced'",
        ).run(JSON.stringify(values));
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
        `SELECT kind, value, added_at AS addedAt, source, reason, detail FROM entries WHERE ${where}
         ORDER BY id DESC LIMIT ? OFFSET ?`,
      ).all(pattern, limit, offset) as (SuppressedEntry & { reason: string | null; detail: string | null })[];
      return {
        total,
        entries: rows.map(({ reason, detail, ...row }) => ({
          ...row,
          ...(reason !== null ? { reason } : {}),
          ...(detail !== null ? { detail } : {}),
        })),
      };
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
