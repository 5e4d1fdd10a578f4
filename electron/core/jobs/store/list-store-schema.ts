// The schema of a job's list file and the mappers from its rows to records (list-store.ts owns the queries).
import { hasColumn, sql, transaction, type Database } from '../../storage/sqlite.ts';
import { badSyntaxResult } from '../../../common/list-funnel.ts';
import type { AddressRecord, Part } from './list-types.ts';

export const listStoreVersion = 12;
const schemaVersion = listStoreVersion;

export type AddressRow = {
  id: number;
  key: string;
  address: string;
  first_row: number;
  sendable: number;
  role: number;
  disposable: number;
  suggestion: string | null;
  result: string | null;
  billed: number;
  reason: string | null;
  cached_at: number | null;
};

export type PartRow = {
  part: number;
  idempotency_key: string;
  first_id: number;
  last_id: number;
  addresses: number;
  batch_id: string | null;
  status: string;
  cursor: string | null;
  skip: number;
  results_in: number;
  pending_only: number;
  via: string | null;
};

export const toAddress = (row: AddressRow): AddressRecord => ({
  id: row.id,
  key: row.key,
  address: row.address,
  firstRow: row.first_row,
  sendable: row.sendable === 1,
  role: row.role === 1,
  disposable: row.disposable === 1,
  suggestion: row.suggestion,
  result: row.result,
  billed: row.billed === 1,
  reason: row.reason,
  cachedAt: row.cached_at,
});

export const toPart = (row: PartRow): Part => ({
  part: row.part,
  idempotencyKey: row.idempotency_key,
  firstId: row.first_id,
  lastId: row.last_id,
  addresses: row.addresses,
  batchId: row.batch_id,
  status: row.status,
  cursor: row.cursor,
  skip: row.skip,
  resultsIn: row.results_in === 1,
  pendingOnly: row.pending_only === 1,
  via: row.via === 'files' || row.via === 'batches' ? row.via : null,
});

/**
 * Brings a list file up to this schema in one transaction: a run killed between making the tables and
 * stamping the version left a file of version 0 with version 3's columns in it, which no start could open
 * again ("duplicate column name: pending_only", found by the kill-at-random-moments soak).
 */
export function migrateListStore(db: Database): void {
  transaction(db, () => migrateInOne(db));
}

function migrateInOne(db: Database): void {
  const { user_version: version } = sql(db, 'PRAGMA user_version').get() as { user_version: number };
  if (version >= schemaVersion) return;
  if (version < 1) createTables(db);
  // 2: bad syntax has a verdict of its own, no longer folded into the service's `invalid`.
  if (version < 2) sql(db, `UPDATE addresses SET result = '${badSyntaxResult}' WHERE sendable = 0`).run();
  // 3: a part that checks again what a canceled or failed batch left sends only addresses still without a verdict.
  if (version < 3) db.exec('ALTER TABLE parts ADD COLUMN pending_only INTEGER NOT NULL DEFAULT 0');
  // 4: the rows' own text, kept the first time a person explores the list (import does not pay for it).
  if (version < 4) db.exec('CREATE TABLE IF NOT EXISTS row_text (first_row INTEGER PRIMARY KEY, rows TEXT NOT NULL)');
  // 5: a typo suggestion the person accepted goes into the cleaned list in place of what was typed.
  if (version < 5) db.exec('ALTER TABLE addresses ADD COLUMN accepted INTEGER NOT NULL DEFAULT 0');
  // 6: the mailbox provider the service found from the address's mail hosts (Sift's live engine says so).
  if (version < 6) db.exec('ALTER TABLE addresses ADD COLUMN provider TEXT');
  // 7: how each part goes to the service (a file upload or the spec's POST /batches), chosen before it is
  // sent. Before, every part was uploaded as a file, so a part planned then goes that way on resume.
  if (version < 7) db.exec("ALTER TABLE parts ADD COLUMN via TEXT; UPDATE parts SET via = 'files'");
  // 8: a verdict reused from the verdict cache says so, with when it was first got (null: checked now, or not yet).
  if (version < 8) db.exec('ALTER TABLE addresses ADD COLUMN cached_at INTEGER');
  // 9: a service's verdicts in a table of their own, appended in id order: updating a million address rows
  // in place rewrote every page of them. Verdicts from before (and the import's own) stay in addresses;
  // readers see both through address_verdicts.
  if (version < 9) db.exec(verdictTables);
  // 10: when an address was valid at an earlier check too old to reuse (the verdict cache), for its score.
  if (version < 10) {
    if (!hasColumn(db, 'addresses', 'earlier_valid_at'))
      db.exec('ALTER TABLE addresses ADD COLUMN earlier_valid_at INTEGER');
    db.exec(`DROP VIEW IF EXISTS address_verdicts; ${verdictView}`);
  }
  // 11: what sends to catch-all domains had come to when the list was checked (list-store-evidence.ts).
  if (version < 11)
    db.exec(`CREATE TABLE IF NOT EXISTS catch_all_evidence (
      domain TEXT PRIMARY KEY, sent INTEGER NOT NULL, bounced INTEGER NOT NULL, since INTEGER NOT NULL,
      move TEXT NOT NULL
    ) WITHOUT ROWID`);
  // 12: how many of those sends were teammates' (shared through a team's service), for the reason's words.
  if (version < 12 && !hasColumn(db, 'catch_all_evidence', 'team_sent'))
    db.exec('ALTER TABLE catch_all_evidence ADD COLUMN team_sent INTEGER NOT NULL DEFAULT 0');
  db.exec(`PRAGMA user_version = ${schemaVersion}`);
}

const verdictTables = `
  CREATE TABLE IF NOT EXISTS verdicts (
    id INTEGER PRIMARY KEY, result TEXT NOT NULL, billed INTEGER NOT NULL, reason TEXT, provider TEXT
  );
`;

/** Each address with its verdict, wherever it is kept (version 10's: with its earlier check). */
const verdictView = `
  CREATE VIEW IF NOT EXISTS address_verdicts AS
    SELECT a.id, a.key, a.address, a.first_row, a.sendable, a.role, a.disposable, a.suggestion, a.accepted,
      a.cached_at, a.earlier_valid_at,
      CASE WHEN v.id IS NULL THEN a.result ELSE v.result END AS result,
      CASE WHEN v.id IS NULL THEN a.billed ELSE v.billed END AS billed,
      CASE WHEN v.id IS NULL THEN a.reason ELSE v.reason END AS reason,
      CASE WHEN v.id IS NULL THEN a.provider ELSE v.provider END AS provider
    FROM addresses a LEFT JOIN verdicts v ON v.id = a.id;
`;

function createTables(db: Database): void {
  db.exec(`
    CREATE TABLE IF NOT EXISTS addresses (
      id INTEGER PRIMARY KEY, key TEXT NOT NULL, address TEXT NOT NULL, first_row INTEGER NOT NULL,
      sendable INTEGER NOT NULL, role INTEGER NOT NULL, disposable INTEGER NOT NULL, suggestion TEXT,
      result TEXT, billed INTEGER NOT NULL DEFAULT 0, reason TEXT
    );
    CREATE TABLE IF NOT EXISTS row_chunks (first_row INTEGER PRIMARY KEY, address_ids BLOB NOT NULL);
    CREATE TABLE IF NOT EXISTS parts (
      part INTEGER PRIMARY KEY, idempotency_key TEXT NOT NULL, first_id INTEGER NOT NULL, last_id INTEGER NOT NULL,
      addresses INTEGER NOT NULL, batch_id TEXT, status TEXT NOT NULL DEFAULT 'pending', cursor TEXT,
      skip INTEGER NOT NULL DEFAULT 0, results_in INTEGER NOT NULL DEFAULT 0
    );
    CREATE TABLE IF NOT EXISTS counters (name TEXT PRIMARY KEY, value INTEGER NOT NULL);
  `);
}
