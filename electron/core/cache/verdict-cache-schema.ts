// The verdict cache's file and its tables: <data>/verdict-cache.sqlite, beside its secret. A verdict is
// stored as its address's keyed hash and a number: the kind of verdict it is (result, reason, the day it
// was got, the service that gave it), of which a list has a handful. So a million verdicts are a million
// short rows, and the import can load those it may reuse in one scan (verdict-cache-reader.ts).
import { join } from 'node:path';
import { openDatabase, transaction, type Database } from '../storage/sqlite.ts';
import { migrateOrRestore } from '../storage/store-versions.ts';

export type CacheMode = 'live' | 'sandbox';

/** Modes as stored: a number per row is a fifth of what the word would take on a million rows. */
export const modeNumber: Record<CacheMode, number> = { live: 0, sandbox: 1 };

/** Where the cache and its secret live in a data folder. */
export const verdictCacheFiles = (dataDir: string) => ({
  db: join(dataDir, 'verdict-cache.sqlite'),
  secret: join(dataDir, 'verdict-cache.secret'),
});

export const verdictCacheVersion = 2;
const currentVersion = verdictCacheVersion;

const tables = `
CREATE TABLE IF NOT EXISTS services (id INTEGER PRIMARY KEY, url TEXT NOT NULL UNIQUE);
CREATE TABLE IF NOT EXISTS verdict_kinds (
  id INTEGER PRIMARY KEY, result TEXT NOT NULL, reason TEXT, checked_at INTEGER NOT NULL,
  service INTEGER NOT NULL REFERENCES services (id)
);
CREATE INDEX IF NOT EXISTS verdict_kinds_by_day ON verdict_kinds (checked_at, service, result);
CREATE TABLE IF NOT EXISTS verdicts (
  mode INTEGER NOT NULL, key TEXT NOT NULL, kind INTEGER NOT NULL REFERENCES verdict_kinds (id),
  PRIMARY KEY (mode, key)
) WITHOUT ROWID`;

/**
 * Version 1 kept result, reason, day and service on every row. Its verdicts move over as they are, so a
 * cache made by an older Sift still spares the checks it paid for.
 */
function fromVersion1(db: Database): void {
  db.exec(`
    ALTER TABLE verdicts RENAME TO verdicts_v1;
    ${tables};
    INSERT INTO verdict_kinds (result, reason, checked_at, service)
      SELECT DISTINCT result, reason, checked_at, service FROM verdicts_v1;
    INSERT INTO verdicts (mode, key, kind)
      SELECT old.mode, old.key, kinds.id FROM verdicts_v1 AS old
      JOIN verdict_kinds AS kinds ON kinds.checked_at = old.checked_at AND kinds.service = old.service
        AND kinds.result = old.result AND kinds.reason IS old.reason
      ORDER BY old.mode, old.key;
    DROP TABLE verdicts_v1`);
}

/** The cache file, made or brought to the current version. */
export function openCacheDatabase(dataDir: string): Database {
  const db = openDatabase(verdictCacheFiles(dataDir).db);
  // A verdict lost in a power cut is checked again next time: no need to wait for the disk on each write.
  db.exec('PRAGMA synchronous = NORMAL');
  const versionOf = () => (db.prepare('PRAGMA user_version').get() as { user_version: number }).user_version;
  if (versionOf() !== currentVersion) {
    let moved = false;
    const path = verdictCacheFiles(dataDir).db;
    migrateOrRestore(path, db, () => (moved = bringUp(db, versionOf)));
    // The old rows' pages are given back: the file shrinks to what the new rows take.
    if (moved) db.exec('VACUUM; PRAGMA wal_checkpoint(TRUNCATE)');
  }
  return db;
}

/** Brings the cache to the current version; answers whether rows moved (from version 1). */
function bringUp(db: Database, versionOf: () => number): boolean {
  return transaction(db, () => {
    // Read again inside the transaction: another process may have brought the file up meanwhile.
    const version = versionOf();
    if (version === currentVersion) return false;
    if (version === 1) fromVersion1(db);
    else if (version === 0) db.exec(tables);
    else throw new Error(`The verdict cache was made by a newer Sift (version ${version}).`);
    db.exec(`PRAGMA user_version = ${currentVersion}`);
    return version === 1;
  });
}

/** Whether a cache file is at the current version (an older one is brought up by `openCacheDatabase`). */
export const isCurrentVersion = (db: Database) =>
  (db.prepare('PRAGMA user_version').get() as { user_version: number }).user_version === currentVersion;
