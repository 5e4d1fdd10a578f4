// The embedded service's tables. Times are milliseconds since the epoch unless named *_iso.
import { randomBytes } from 'node:crypto';
import type { SqlConnection } from '../../storage/sql-connection.ts';
import { hasColumn, sql, transaction, type Database } from '../../storage/sqlite.ts';
import { teamCatchAllTable } from './team-catch-all-store.ts';
import { teamOutcomesTable } from './team-outcomes-store.ts';
import { coordinationTables, droppedColumns, leaseColumnsSql, ownerColumns } from './coordination-schema.ts';

export const serviceSchemaVersion = 10;
const schemaVersion = serviceSchemaVersion;

/**
 * Brings the service's file up to this schema in one transaction (the version read inside it, so a second
 * process waits and then finds the work done): a process killed between making the tables and stamping
 * the version would otherwise leave version 0 with later columns in it, which no start could open again.
 */
export function migrate(db: Database): void {
  transaction(db, () => migrateInOne(db));
}

function migrateInOne(db: Database): void {
  const current = Number((sql(db, 'PRAGMA user_version').get() as { user_version: number }).user_version);
  if (current >= schemaVersion) return;
  if (current < 1) createTables(db);
  // 2: no index of pending rows (two B-tree writes per address); the worker walks the primary key instead.
  if (current < 2) db.exec('DROP INDEX IF EXISTS batch_rows_pending');
  if (current < 3) addLocalEngineTables(db);
  // 4: how each live conversation was protected (STARTTLS, and whether the certificate verified).
  if (current < 4) db.exec('ALTER TABLE batch_rows ADD COLUMN smtp_tls TEXT');
  if (current < 5) transaction(db, () => rebuildBatchRowsWithoutNorm(db));
  if (current < 6) transaction(db, () => keyRowsByOneInteger(db));
  // 7: what several processes on one database share (coordination-schema.ts).
  if (current < 7) transaction(db, () => addCoordinationTables(db));
  // 8: which process holds a domain of the live queue, so that only it renews the hold.
  if (current < 8 && !hasColumn(db, 'probe_domains', 'lease_owner')) db.exec(leaseColumnsSql);
  // 9, 10: a team's outcomes and its catch-all counts (team-outcomes-store.ts, team-catch-all-store.ts).
  if (current < 9) db.exec(teamOutcomesTable);
  if (current < 10) db.exec(teamCatchAllTable);
  db.exec(`PRAGMA user_version = ${schemaVersion}`);
}

function createTables(db: Database): void {
  db.exec(`
    CREATE TABLE IF NOT EXISTS meta (name TEXT PRIMARY KEY, value TEXT NOT NULL);
    CREATE TABLE IF NOT EXISTS account (
      id INTEGER PRIMARY KEY CHECK (id = 1),
      balance INTEGER NOT NULL DEFAULT 0,
      free_month TEXT NOT NULL DEFAULT '',
      free_used INTEGER NOT NULL DEFAULT 0,
      low_threshold INTEGER,
      low_armed INTEGER NOT NULL DEFAULT 1
    );
    INSERT OR IGNORE INTO account (id) VALUES (1);
    CREATE TABLE IF NOT EXISTS api_keys (
      id TEXT PRIMARY KEY,
      mode TEXT NOT NULL CHECK (mode IN ('live', 'sandbox')),
      label TEXT NOT NULL,
      hash TEXT NOT NULL UNIQUE,
      masked TEXT NOT NULL,
      state TEXT NOT NULL DEFAULT 'active' CHECK (state IN ('active', 'revoked')),
      created_at INTEGER NOT NULL,
      last_used_at INTEGER,
      revoked_at INTEGER,
      rate_limits TEXT
    );
    CREATE TABLE IF NOT EXISTS batches (
      id TEXT PRIMARY KEY,
      key_id TEXT NOT NULL REFERENCES api_keys(id),
      mode TEXT NOT NULL,
      name TEXT NOT NULL,
      status TEXT NOT NULL,
      submitted INTEGER NOT NULL DEFAULT 0,
      unique_count INTEGER NOT NULL DEFAULT 0,
      done_count INTEGER NOT NULL DEFAULT 0,
      c_valid INTEGER NOT NULL DEFAULT 0,
      c_invalid INTEGER NOT NULL DEFAULT 0,
      c_catch_all INTEGER NOT NULL DEFAULT 0,
      c_unknown INTEGER NOT NULL DEFAULT 0,
      c_role INTEGER NOT NULL DEFAULT 0,
      c_disposable INTEGER NOT NULL DEFAULT 0,
      c_billed INTEGER NOT NULL DEFAULT 0,
      reserved_free INTEGER NOT NULL DEFAULT 0,
      reserved_paid INTEGER NOT NULL DEFAULT 0,
      free_month TEXT NOT NULL DEFAULT '',
      next_result_seq INTEGER NOT NULL DEFAULT 1,
      created_at INTEGER NOT NULL,
      ended_at INTEGER,
      error TEXT
    );
    CREATE INDEX IF NOT EXISTS batches_running ON batches (created_at) WHERE status = 'running';
    CREATE TABLE IF NOT EXISTS batch_rows (
      batch_id TEXT NOT NULL REFERENCES batches(id) ON DELETE CASCADE,
      seq INTEGER NOT NULL,
      email TEXT NOT NULL,
      norm TEXT NOT NULL,
      host TEXT,
      result TEXT,
      reason TEXT,
      role INTEGER NOT NULL DEFAULT 0,
      disposable INTEGER NOT NULL DEFAULT 0,
      billed INTEGER NOT NULL DEFAULT 0,
      billed_free INTEGER NOT NULL DEFAULT 0,
      attempts INTEGER NOT NULL DEFAULT 0,
      result_seq INTEGER,
      PRIMARY KEY (batch_id, seq),
      UNIQUE (batch_id, norm)
    );
    CREATE UNIQUE INDEX IF NOT EXISTS batch_rows_by_result ON batch_rows (batch_id, result_seq) WHERE result_seq IS NOT NULL;
    CREATE TABLE IF NOT EXISTS idempotency (
      key_id TEXT NOT NULL,
      idem_key TEXT NOT NULL,
      request_hash TEXT NOT NULL,
      status INTEGER,
      body TEXT,
      created_at INTEGER NOT NULL,
      PRIMARY KEY (key_id, idem_key)
    );
    CREATE TABLE IF NOT EXISTS webhook_endpoints (
      id TEXT PRIMARY KEY,
      url TEXT NOT NULL,
      secret TEXT NOT NULL,
      created_at INTEGER NOT NULL,
      disabled INTEGER NOT NULL DEFAULT 0
    );
    CREATE TABLE IF NOT EXISTS events (
      id TEXT PRIMARY KEY,
      type TEXT NOT NULL,
      body TEXT NOT NULL,
      created_at INTEGER NOT NULL
    );
    CREATE TABLE IF NOT EXISTS deliveries (
      id TEXT PRIMARY KEY,
      event_id TEXT NOT NULL REFERENCES events(id),
      endpoint_id TEXT NOT NULL REFERENCES webhook_endpoints(id),
      status TEXT NOT NULL CHECK (status IN ('pending', 'retrying', 'delivered', 'failed')),
      attempts INTEGER NOT NULL DEFAULT 0,
      next_attempt_at INTEGER,
      last_status INTEGER,
      last_error TEXT,
      updated_at INTEGER NOT NULL
    );
    CREATE INDEX IF NOT EXISTS deliveries_due ON deliveries (next_attempt_at) WHERE status IN ('pending', 'retrying');
  `);
}

/**
 * 3: the local SMTP engine. Its state is in these tables, not in process memory, so that a restart
 * carries on and several workers could one day share it: a queue of live addresses by domain, when each
 * domain is next due, what DNS and catch-all probes found per domain, and each mail host's budget.
 */
function addLocalEngineTables(db: Database): void {
  db.exec(`
    ALTER TABLE batch_rows ADD COLUMN provider TEXT;
    ALTER TABLE batch_rows ADD COLUMN free INTEGER;
    ALTER TABLE batch_rows ADD COLUMN smtp_reply TEXT;
    ALTER TABLE batches ADD COLUMN queued INTEGER NOT NULL DEFAULT 0;
    CREATE TABLE IF NOT EXISTS probe_queue (
      batch_id TEXT NOT NULL,
      seq INTEGER NOT NULL,
      domain TEXT NOT NULL,
      not_before INTEGER NOT NULL,
      tries INTEGER NOT NULL DEFAULT 0,
      PRIMARY KEY (batch_id, seq)
    );
    CREATE INDEX IF NOT EXISTS probe_queue_by_domain ON probe_queue (domain, not_before);
    CREATE TABLE IF NOT EXISTS probe_domains (domain TEXT PRIMARY KEY, next_at INTEGER NOT NULL);
    CREATE INDEX IF NOT EXISTS probe_domains_due ON probe_domains (next_at);
    CREATE TABLE IF NOT EXISTS mail_domains (
      domain TEXT PRIMARY KEY,
      route TEXT,
      route_expires_at INTEGER NOT NULL DEFAULT 0,
      catch_all INTEGER,
      catch_all_expires_at INTEGER NOT NULL DEFAULT 0
    );
    CREATE TABLE IF NOT EXISTS mail_hosts (
      budget_key TEXT PRIMARY KEY,
      rate REAL NOT NULL,
      next_slot_at INTEGER NOT NULL DEFAULT 0,
      in_flight INTEGER NOT NULL DEFAULT 0,
      backoff_until INTEGER NOT NULL DEFAULT 0,
      deferrals INTEGER NOT NULL DEFAULT 0
    );
  `);
}

/**
 * 5: no copy of each address lower-cased and no unique index of it. That index cost a random B-tree write
 * per address staged (a third of a million-address upload); duplicates within an upload are now found
 * while it is staged (`Staging` in batches-store.ts), and a batch never gains addresses later.
 */
function rebuildBatchRowsWithoutNorm(db: Database): void {
  const columns =
    'batch_id, seq, email, host, result, reason, role, disposable, billed, billed_free, attempts, result_seq, provider, free, smtp_reply, smtp_tls';
  db.exec(`
    CREATE TABLE batch_rows_v5 (
      batch_id TEXT NOT NULL REFERENCES batches(id) ON DELETE CASCADE,
      seq INTEGER NOT NULL,
      email TEXT NOT NULL,
      host TEXT,
      result TEXT,
      reason TEXT,
      role INTEGER NOT NULL DEFAULT 0,
      disposable INTEGER NOT NULL DEFAULT 0,
      billed INTEGER NOT NULL DEFAULT 0,
      billed_free INTEGER NOT NULL DEFAULT 0,
      attempts INTEGER NOT NULL DEFAULT 0,
      result_seq INTEGER,
      provider TEXT,
      free INTEGER,
      smtp_reply TEXT,
      smtp_tls TEXT,
      PRIMARY KEY (batch_id, seq)
    );
    INSERT INTO batch_rows_v5 (${columns}) SELECT ${columns} FROM batch_rows ORDER BY batch_id, seq;
    DROP TABLE batch_rows;
    ALTER TABLE batch_rows_v5 RENAME TO batch_rows;
    CREATE UNIQUE INDEX batch_rows_by_result ON batch_rows (batch_id, result_seq) WHERE result_seq IS NOT NULL;
  `);
}

/**
 * 6: a row's key is one integer, its batch's `row_key` in the high 32 bits and its seq in the low (see
 * row-ids.ts), and so is its place in result order. A text batch id and a seq made every row carry the id
 * and a second B-tree beside the table: a million-address upload wrote half again as many pages.
 */
function keyRowsByOneInteger(db: Database): void {
  const verdictColumns =
    'email, host, result, reason, role, disposable, billed, billed_free, attempts, provider, free, smtp_reply, smtp_tls';
  db.exec(`
    ALTER TABLE batches ADD COLUMN row_key INTEGER;
    UPDATE batches SET row_key = rowid;
    CREATE UNIQUE INDEX batches_by_row_key ON batches (row_key);
    CREATE TABLE batch_rows_v6 (
      id INTEGER PRIMARY KEY,
      email TEXT NOT NULL,
      host TEXT,
      result TEXT,
      reason TEXT,
      role INTEGER NOT NULL DEFAULT 0,
      disposable INTEGER NOT NULL DEFAULT 0,
      billed INTEGER NOT NULL DEFAULT 0,
      billed_free INTEGER NOT NULL DEFAULT 0,
      attempts INTEGER NOT NULL DEFAULT 0,
      result_key INTEGER,
      provider TEXT,
      free INTEGER,
      smtp_reply TEXT,
      smtp_tls TEXT
    );
    INSERT INTO batch_rows_v6 (id, result_key, ${verdictColumns})
      SELECT (b.row_key << 32) | r.seq, (b.row_key << 32) | r.result_seq, ${verdictColumns.replace(/(\w+)/g, 'r.$1')}
      FROM batch_rows AS r JOIN batches AS b ON b.id = r.batch_id ORDER BY 1;
    DROP TABLE batch_rows;
    ALTER TABLE batch_rows_v6 RENAME TO batch_rows;
    CREATE UNIQUE INDEX batch_rows_by_result ON batch_rows (result_key) WHERE result_key IS NOT NULL;
    CREATE TABLE probe_queue_v6 (
      row_id INTEGER PRIMARY KEY,
      domain TEXT NOT NULL,
      not_before INTEGER NOT NULL,
      tries INTEGER NOT NULL DEFAULT 0
    );
    INSERT INTO probe_queue_v6 (row_id, domain, not_before, tries)
      SELECT (b.row_key << 32) | q.seq, q.domain, q.not_before, q.tries
      FROM probe_queue AS q JOIN batches AS b ON b.id = q.batch_id;
    DROP TABLE probe_queue;
    ALTER TABLE probe_queue_v6 RENAME TO probe_queue;
    CREATE INDEX probe_queue_by_domain ON probe_queue (domain, not_before);
  `);
}

/** 7: see coordination-schema.ts. Columns are added and dropped only where they are (not) yet. */
function addCoordinationTables(db: Database): void {
  db.exec(coordinationTables);
  for (const [table, column] of ownerColumns) {
    if (!hasColumn(db, table, column)) db.exec(`ALTER TABLE ${table} ADD COLUMN ${column} TEXT`);
  }
  for (const [table, column] of droppedColumns) {
    if (hasColumn(db, table, column)) db.exec(`ALTER TABLE ${table} DROP COLUMN ${column}`);
  }
}

/** A random id with the spec's prefix form, e.g. `bat_<id>`, `evt_<id>`. */
export function newId(prefix: string): string {
  return `${prefix}_${randomBytes(12).toString('hex')}`;
}

/** A secret kept in the database (cursor encryption), made on first start. */
export async function metaSecret(db: SqlConnection, name: string): Promise<Buffer> {
  const read = async () => (await db.get<{ value: string }>('SELECT value FROM meta WHERE name = ?', [name]))?.value;
  // Several processes may start at once: the first to store a secret wins and all use it.
  await db.run('INSERT INTO meta (name, value) VALUES (?, ?) ON CONFLICT (name) DO NOTHING', [
    name,
    (await read()) ?? randomBytes(32).toString('base64'),
  ]);
  return Buffer.from((await read())!, 'base64');
}
