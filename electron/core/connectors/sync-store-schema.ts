// The sync store's file and tables: <data>/connectors/syncs.sqlite, one database for the syncs and their
// planned changes (sync-store.ts) and the schedules (schedule-store.ts).
import { join } from 'node:path';
import { openDatabase, transaction, type Database } from '../storage/sqlite.ts';
import { migrateOrRestore } from '../storage/store-versions.ts';

export const syncStoreVersion = 3;
export const syncStoreFile = (dataDir: string) => join(dataDir, 'connectors', 'syncs.sqlite');

const tables = `
CREATE TABLE syncs (
  id INTEGER PRIMARY KEY, connection TEXT NOT NULL, audience TEXT NOT NULL, started_at INTEGER NOT NULL,
  phase TEXT NOT NULL, next_cursor TEXT, read_done INTEGER NOT NULL DEFAULT 0, file_bytes INTEGER NOT NULL DEFAULT 0,
  members INTEGER NOT NULL DEFAULT 0, job_id TEXT
);
CREATE INDEX syncs_by_list ON syncs (connection, audience, phase);
CREATE TABLE planned_changes (
  sync_id INTEGER NOT NULL REFERENCES syncs (id), member_id TEXT NOT NULL, email TEXT NOT NULL, change TEXT NOT NULL,
  verdict TEXT NOT NULL, score INTEGER, reasons TEXT NOT NULL DEFAULT '', state TEXT NOT NULL DEFAULT 'planned', words TEXT,
  PRIMARY KEY (sync_id, member_id, change)
);
CREATE INDEX planned_changes_by_member ON planned_changes (member_id, state);
CREATE TABLE schedules (
  connection TEXT NOT NULL, audience TEXT NOT NULL, every_days INTEGER NOT NULL, write_back INTEGER NOT NULL,
  next_due INTEGER NOT NULL, last_run INTEGER, last_outcome TEXT, clean_flags TEXT NOT NULL DEFAULT '[]',
  PRIMARY KEY (connection, audience)
)`;

/** Each later version's step, from the one before. */
const steps: Record<number, string> = {
  // Which members a sync reads (connector.ts's readChoiceKey): '' for a list's subscribed ones, as before.
  2: "ALTER TABLE syncs ADD COLUMN read_choice TEXT NOT NULL DEFAULT ''",
  // The tool's bulk job a change went in (state 'sent'), while its results are awaited (sync-run.ts).
  3: 'ALTER TABLE planned_changes ADD COLUMN batch TEXT',
};

/** The file, made with its tables when new, and brought up to this version in one transaction. */
export function openSyncDatabase(dataDir: string): Database {
  const path = syncStoreFile(dataDir);
  const db = openDatabase(path);
  const version = () => (db.prepare('PRAGMA user_version').get() as { user_version: number }).user_version;
  if (version() < syncStoreVersion)
    migrateOrRestore(path, db, () =>
      transaction(db, () => {
        // Asked again inside the transaction: another process (a scheduled run, say) may have done it first.
        const from = version();
        if (from >= syncStoreVersion) return;
        if (from === 0) db.exec(tables);
        for (let step = Math.max(from, 1) + 1; step <= syncStoreVersion; step += 1) db.exec(steps[step]!);
        db.exec(`PRAGMA user_version = ${syncStoreVersion}`);
      }),
    );
  return db;
}

/**
 * A store over this file opened only when first used, so an app that never syncs makes no file; `close`
 * closes it only if it was opened.
 */
export function openedWhenUsed<T extends { close(): void }>(open: () => T): T {
  let opened: T | undefined;
  return new Proxy({} as T, {
    get: (_target, name) => (name === 'close' ? () => opened?.close() : (opened ??= open())[name as keyof T]),
  });
}
