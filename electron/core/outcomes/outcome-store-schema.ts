// The outcome store's file and tables: <data>/outcomes/outcomes.sqlite. Where outcomes come from (a
// mailbox, a file, a tool) with how far each was read; the bounce messages as they arrived, so a person can
// open the one an outcome came from; the outcomes, each with what Sift had said of the address before; and
// the last send to each address a tool reported (by the cache's keyed hash), with the same.
import { join } from 'node:path';
import { openDatabase, transaction, type Database } from '../storage/sqlite.ts';
import { migrateOrRestore } from '../storage/store-versions.ts';

export const outcomeStoreVersion = 5;
export const outcomeStoreFile = (dataDir: string) => join(dataDir, 'outcomes', 'outcomes.sqlite');

const tables = `
CREATE TABLE sources (
  id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE, kind TEXT NOT NULL, cursor TEXT, read_at INTEGER
);
CREATE TABLE messages (
  id INTEGER PRIMARY KEY, source INTEGER NOT NULL REFERENCES sources (id) ON DELETE CASCADE, ref TEXT NOT NULL,
  at INTEGER NOT NULL, subject TEXT NOT NULL, raw BLOB, moved INTEGER NOT NULL DEFAULT 0, UNIQUE (source, ref)
);
CREATE TABLE outcomes (
  id INTEGER PRIMARY KEY, source INTEGER NOT NULL REFERENCES sources (id) ON DELETE CASCADE,
  message INTEGER REFERENCES messages (id) ON DELETE CASCADE, address TEXT NOT NULL, key TEXT NOT NULL,
  kind TEXT NOT NULL CHECK (kind IN ('hard', 'soft', 'refused')), reason TEXT NOT NULL, status TEXT, words TEXT,
  at INTEGER NOT NULL, undone_at INTEGER,
  checked_result TEXT, checked_reason TEXT, checked_at INTEGER, replaced INTEGER NOT NULL DEFAULT 0,
  UNIQUE (source, address, kind, at)
);
CREATE INDEX messages_unmoved ON messages (source, moved);
CREATE INDEX outcomes_by_address ON outcomes (address, kind);
CREATE INDEX outcomes_by_key ON outcomes (key);
CREATE INDEX outcomes_by_checked ON outcomes (checked_at, checked_result);
CREATE TABLE sends (
  key TEXT PRIMARY KEY, at INTEGER NOT NULL, checked_result TEXT, checked_at INTEGER
) WITHOUT ROWID`;

/**
 * What sharing with a team's service needs: this folder's origin (in meta), each source's id there, each
 * outcome's id there when a teammate read it (`remote`) and whether the service has its latest (`shared`),
 * and the forgetting of a source still to be told to the service.
 */
const teamSharing = `
CREATE TABLE meta (name TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
ALTER TABLE sources ADD COLUMN team_id TEXT;
ALTER TABLE outcomes ADD COLUMN remote TEXT;
ALTER TABLE outcomes ADD COLUMN shared INTEGER NOT NULL DEFAULT 0;
CREATE UNIQUE INDEX outcomes_by_remote ON outcomes (remote) WHERE remote IS NOT NULL;
CREATE INDEX outcomes_unshared ON outcomes (id) WHERE shared = 0;
CREATE TABLE team_forgets (team_id TEXT PRIMARY KEY) WITHOUT ROWID`;

/**
 * One outcome per source, address, kind and time, as before, but for the teammates' source one per report:
 * two teammates who read the same bounce (one audience, one time) are two outcomes here, so the one who
 * forgets theirs leaves the other's standing. SQLite cannot drop a table's own UNIQUE, so the table is made
 * again, its rows and ids as they were.
 */
const onePerReport = `
CREATE TABLE outcomes_4 (
  id INTEGER PRIMARY KEY, source INTEGER NOT NULL REFERENCES sources (id) ON DELETE CASCADE,
  message INTEGER REFERENCES messages (id) ON DELETE CASCADE, address TEXT NOT NULL, key TEXT NOT NULL,
  kind TEXT NOT NULL CHECK (kind IN ('hard', 'soft', 'refused')), reason TEXT NOT NULL, status TEXT, words TEXT,
  at INTEGER NOT NULL, undone_at INTEGER,
  checked_result TEXT, checked_reason TEXT, checked_at INTEGER, replaced INTEGER NOT NULL DEFAULT 0,
  remote TEXT, shared INTEGER NOT NULL DEFAULT 0
);
INSERT INTO outcomes_4 (id, source, message, address, key, kind, reason, status, words, at, undone_at,
  checked_result, checked_reason, checked_at, replaced, remote, shared)
SELECT id, source, message, address, key, kind, reason, status, words, at, undone_at,
  checked_result, checked_reason, checked_at, replaced, remote, shared FROM outcomes;
DROP TABLE outcomes;
ALTER TABLE outcomes_4 RENAME TO outcomes;
CREATE UNIQUE INDEX outcomes_once ON outcomes (source, address, kind, at, coalesce(remote, ''));
CREATE INDEX outcomes_by_address ON outcomes (address, kind);
CREATE INDEX outcomes_by_key ON outcomes (key);
CREATE INDEX outcomes_by_checked ON outcomes (checked_at, checked_result);
CREATE UNIQUE INDEX outcomes_by_remote ON outcomes (remote) WHERE remote IS NOT NULL;
CREATE INDEX outcomes_unshared ON outcomes (id) WHERE shared = 0`;

/**
 * A team's catch-all counts (team-catch-all.ts), per team service: what this folder last told it of its own
 * sends to catch-all domains, and every other folder's counts as last read there (with the next read staged
 * beside them, so a read cut off leaves the last whole one in use).
 */
const teamCatchAll = `
CREATE TABLE catch_all_shared (
  service TEXT NOT NULL, domain TEXT NOT NULL, sent INTEGER NOT NULL, bounced INTEGER NOT NULL,
  since INTEGER NOT NULL, PRIMARY KEY (service, domain)
) WITHOUT ROWID;
CREATE TABLE team_catch_all (
  service TEXT NOT NULL, domain TEXT NOT NULL, sent INTEGER NOT NULL, bounced INTEGER NOT NULL,
  since INTEGER NOT NULL, folders INTEGER NOT NULL, PRIMARY KEY (service, domain)
) WITHOUT ROWID;
CREATE TABLE team_catch_all_next (
  service TEXT NOT NULL, domain TEXT NOT NULL, sent INTEGER NOT NULL, bounced INTEGER NOT NULL,
  since INTEGER NOT NULL, folders INTEGER NOT NULL, PRIMARY KEY (service, domain)
) WITHOUT ROWID`;

/** The file, made with its tables when new, in one transaction. */
export function openOutcomeDatabase(dataDir: string): Database {
  const path = outcomeStoreFile(dataDir);
  const db = openDatabase(path);
  const version = () => (db.prepare('PRAGMA user_version').get() as { user_version: number }).user_version;
  if (version() < outcomeStoreVersion)
    migrateOrRestore(path, db, () =>
      transaction(db, () => {
        const from = version();
        if (from >= outcomeStoreVersion) return;
        if (from < 1) db.exec(tables);
        // 2: each send's domain, for what a catch-all domain's sends came to (catch-all-evidence.ts); the
        // key is a keyed hash of the address, which names no domain. Sends kept before have none.
        if (from < 2) db.exec('ALTER TABLE sends ADD COLUMN domain TEXT');
        // 3: sharing with a team's service (team-share-store.ts).
        if (from < 3) db.exec(teamSharing);
        // 4: a teammate's report of a bounce is an outcome of its own (onePerReport).
        if (from < 4) db.exec(onePerReport);
        // 5: a team's catch-all counts (teamCatchAll).
        if (from < 5) db.exec(teamCatchAll);
        db.exec(`PRAGMA user_version = ${outcomeStoreVersion}`);
      }),
    );
  return db;
}
