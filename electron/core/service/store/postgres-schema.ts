// The service's tables on PostgreSQL: the same tables and columns as SQLite's schema.ts reaches at its
// version 10, made in one step. Times are milliseconds since the epoch, as doubles (the engine's pacing
// times have fractions); counts and keys are 64-bit. Several processes may start at once: the first to
// take the advisory lock makes the tables, the rest find them made.
import { NewerDataError } from '../../storage/store-versions.ts';
import type { SqlConnection } from '../../storage/sql-connection.ts';
import { teamCatchAllTable } from './team-catch-all-store.ts';
import { teamOutcomesTable } from './team-outcomes-store.ts';
import { coordinationTables, droppedColumns, leaseColumnsSql, postgresOwnerColumns } from './coordination-schema.ts';

/** Any number of Sift's own: the lock that lets one starting process at a time change the schema. */
const migrationLock = 0x51f7_0001;
/**
 * 1: SQLite's version 6. 2: and its version 7, the tables several processes share (added in place).
 * 3: its version 8. 4: its version 9, a team's outcomes. 5: its version 10, a team's catch-all counts.
 */
const schemaVersion = 5;

const tables = `
  CREATE TABLE IF NOT EXISTS meta (name TEXT PRIMARY KEY, value TEXT NOT NULL);
  CREATE TABLE IF NOT EXISTS account (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    balance BIGINT NOT NULL DEFAULT 0,
    free_month TEXT NOT NULL DEFAULT '',
    free_used BIGINT NOT NULL DEFAULT 0,
    low_threshold BIGINT,
    low_armed INTEGER NOT NULL DEFAULT 1
  );
  INSERT INTO account (id) VALUES (1) ON CONFLICT DO NOTHING;
  CREATE TABLE IF NOT EXISTS api_keys (
    id TEXT PRIMARY KEY,
    mode TEXT NOT NULL CHECK (mode IN ('live', 'sandbox')),
    label TEXT NOT NULL,
    hash TEXT NOT NULL UNIQUE,
    masked TEXT NOT NULL,
    state TEXT NOT NULL DEFAULT 'active' CHECK (state IN ('active', 'revoked')),
    created_at DOUBLE PRECISION NOT NULL,
    last_used_at DOUBLE PRECISION,
    revoked_at DOUBLE PRECISION,
    rate_limits TEXT
  );
  CREATE SEQUENCE IF NOT EXISTS batch_row_keys;
  CREATE TABLE IF NOT EXISTS batches (
    id TEXT PRIMARY KEY,
    key_id TEXT NOT NULL REFERENCES api_keys(id),
    mode TEXT NOT NULL,
    name TEXT NOT NULL,
    status TEXT NOT NULL,
    submitted BIGINT NOT NULL DEFAULT 0,
    unique_count BIGINT NOT NULL DEFAULT 0,
    done_count BIGINT NOT NULL DEFAULT 0,
    c_valid BIGINT NOT NULL DEFAULT 0,
    c_invalid BIGINT NOT NULL DEFAULT 0,
    c_catch_all BIGINT NOT NULL DEFAULT 0,
    c_unknown BIGINT NOT NULL DEFAULT 0,
    c_role BIGINT NOT NULL DEFAULT 0,
    c_disposable BIGINT NOT NULL DEFAULT 0,
    c_billed BIGINT NOT NULL DEFAULT 0,
    reserved_free BIGINT NOT NULL DEFAULT 0,
    reserved_paid BIGINT NOT NULL DEFAULT 0,
    free_month TEXT NOT NULL DEFAULT '',
    next_result_seq BIGINT NOT NULL DEFAULT 1,
    created_at DOUBLE PRECISION NOT NULL,
    ended_at DOUBLE PRECISION,
    error TEXT,
    queued INTEGER NOT NULL DEFAULT 0,
    row_key BIGINT NOT NULL UNIQUE
  );
  CREATE INDEX IF NOT EXISTS batches_running ON batches (created_at) WHERE status = 'running';
  CREATE TABLE IF NOT EXISTS batch_rows (
    id BIGINT PRIMARY KEY,
    email TEXT NOT NULL,
    host TEXT,
    result TEXT,
    reason TEXT,
    role INTEGER NOT NULL DEFAULT 0,
    disposable INTEGER NOT NULL DEFAULT 0,
    billed INTEGER NOT NULL DEFAULT 0,
    billed_free INTEGER NOT NULL DEFAULT 0,
    attempts INTEGER NOT NULL DEFAULT 0,
    result_key BIGINT,
    provider TEXT,
    free INTEGER,
    smtp_reply TEXT,
    smtp_tls TEXT
  );
  CREATE UNIQUE INDEX IF NOT EXISTS batch_rows_by_result ON batch_rows (result_key) WHERE result_key IS NOT NULL;
  CREATE TABLE IF NOT EXISTS idempotency (
    key_id TEXT NOT NULL,
    idem_key TEXT NOT NULL,
    request_hash TEXT NOT NULL,
    status INTEGER,
    body TEXT,
    created_at DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (key_id, idem_key)
  );
  CREATE TABLE IF NOT EXISTS webhook_endpoints (
    id TEXT PRIMARY KEY,
    url TEXT NOT NULL,
    secret TEXT NOT NULL,
    created_at DOUBLE PRECISION NOT NULL,
    disabled INTEGER NOT NULL DEFAULT 0
  );
  CREATE TABLE IF NOT EXISTS events (
    id TEXT PRIMARY KEY,
    type TEXT NOT NULL,
    body TEXT NOT NULL,
    created_at DOUBLE PRECISION NOT NULL
  );
  CREATE TABLE IF NOT EXISTS deliveries (
    id TEXT PRIMARY KEY,
    event_id TEXT NOT NULL REFERENCES events(id),
    endpoint_id TEXT NOT NULL REFERENCES webhook_endpoints(id),
    status TEXT NOT NULL CHECK (status IN ('pending', 'retrying', 'delivered', 'failed')),
    attempts INTEGER NOT NULL DEFAULT 0,
    next_attempt_at DOUBLE PRECISION,
    last_status INTEGER,
    last_error TEXT,
    updated_at DOUBLE PRECISION NOT NULL
  );
  CREATE INDEX IF NOT EXISTS deliveries_due ON deliveries (next_attempt_at) WHERE status IN ('pending', 'retrying');
  CREATE TABLE IF NOT EXISTS probe_queue (
    row_id BIGINT PRIMARY KEY,
    domain TEXT NOT NULL,
    not_before DOUBLE PRECISION NOT NULL,
    tries INTEGER NOT NULL DEFAULT 0
  );
  CREATE INDEX IF NOT EXISTS probe_queue_by_domain ON probe_queue (domain, not_before);
  CREATE TABLE IF NOT EXISTS probe_domains (domain TEXT PRIMARY KEY, next_at DOUBLE PRECISION NOT NULL);
  CREATE INDEX IF NOT EXISTS probe_domains_due ON probe_domains (next_at);
  CREATE TABLE IF NOT EXISTS mail_domains (
    domain TEXT PRIMARY KEY,
    route TEXT,
    route_expires_at DOUBLE PRECISION NOT NULL DEFAULT 0,
    catch_all INTEGER,
    catch_all_expires_at DOUBLE PRECISION NOT NULL DEFAULT 0
  );
  CREATE TABLE IF NOT EXISTS mail_hosts (
    budget_key TEXT PRIMARY KEY,
    rate DOUBLE PRECISION NOT NULL,
    next_slot_at DOUBLE PRECISION NOT NULL DEFAULT 0,
    backoff_until DOUBLE PRECISION NOT NULL DEFAULT 0,
    deferrals INTEGER NOT NULL DEFAULT 0
  );
`;

/**
 * Makes the tables if they are not there. One simple query on one connection, in READ COMMITTED: a
 * process that waited for the lock sees what the first one committed.
 */
export async function migratePostgres(db: SqlConnection): Promise<void> {
  // Tables already at this version: no DDL at all. Even a CREATE INDEX IF NOT EXISTS takes a lock on its
  // table, and a dashboard command (keys, top-up) run beside busy workers would deadlock with them.
  const found = await schemaVersionOf(db);
  if (found > schemaVersion) {
    throw new NewerDataError(
      `The PostgreSQL database was written by a newer Sift: its schema is version ${found}, and this Sift ` +
        `reads up to ${schemaVersion}. It is left as it is: run the newer Sift against it.`,
    );
  }
  if (found === schemaVersion) return;
  await db.exec(`
    BEGIN;
    SELECT pg_advisory_xact_lock(${migrationLock});
    ${tables}
    ${coordinationTables}
    ${teamOutcomesTable}
    ${teamCatchAllTable}
    CREATE TABLE IF NOT EXISTS sift_schema (version INTEGER NOT NULL);
    -- Only on the way to 2: an ALTER TABLE locks its table even when it changes nothing.
    DO $$ BEGIN
      IF NOT EXISTS (SELECT 1 FROM sift_schema WHERE version >= 2) THEN
        ${postgresOwnerColumns}
        ${droppedColumns.map(([table, column]) => `ALTER TABLE ${table} DROP COLUMN IF EXISTS ${column};`).join('\n')}
      END IF;
      IF NOT EXISTS (SELECT 1 FROM sift_schema WHERE version >= 3) THEN
        ${leaseColumnsSql.replace('ADD COLUMN', 'ADD COLUMN IF NOT EXISTS')}
      END IF;
    END $$;
    INSERT INTO sift_schema (version) SELECT ${schemaVersion} WHERE NOT EXISTS (SELECT 1 FROM sift_schema);
    UPDATE sift_schema SET version = ${schemaVersion} WHERE version < ${schemaVersion};
    COMMIT;
  `);
}

/** The version the tables are at; 0 when Sift has not made them yet. */
async function schemaVersionOf(db: SqlConnection): Promise<number> {
  const { made } = (await db.get<{ made: string | null }>("SELECT CAST(to_regclass('sift_schema') AS TEXT) AS made"))!;
  if (made === null) return 0;
  return (await db.get<{ version: number | null }>('SELECT MAX(version) AS version FROM sift_schema'))?.version ?? 0;
}
