// The tables that let several service processes share one database (schema version 7 on SQLite,
// part of PostgreSQL's tables): written once, in types both engines take (SQLite reads BIGINT as an
// integer and DOUBLE PRECISION as a real). Times are milliseconds since the epoch.
/**
 * - `rate_windows`: each key's requests per rate-limit window, counted for every process at once.
 * - `service_processes`: the processes working on this database, each seen every few seconds; what a
 *   process that stopped being seen had claimed (an upload mid-way, a request mid-way) is let go.
 * - `work_chunks`: a running batch's rows in chunks, each claimed by one worker at a time for a while.
 * - `host_tokens`: the paced worker's per-mail-host token buckets, shared by every worker.
 * - `mail_host_connections`: the local engine's open connections per mail host budget, per process, so
 *   a host's connection cap holds across processes and a gone process's connections stop counting.
 */
export const coordinationTables = `
  CREATE TABLE IF NOT EXISTS rate_windows (
    bucket TEXT NOT NULL,
    window_start DOUBLE PRECISION NOT NULL,
    expires_at DOUBLE PRECISION NOT NULL,
    used INTEGER NOT NULL,
    PRIMARY KEY (bucket, window_start)
  );
  CREATE INDEX IF NOT EXISTS rate_windows_expiry ON rate_windows (expires_at);
  CREATE TABLE IF NOT EXISTS service_processes (
    id TEXT PRIMARY KEY,
    role TEXT NOT NULL,
    host TEXT NOT NULL,
    pid INTEGER NOT NULL,
    started_at DOUBLE PRECISION NOT NULL,
    seen_at DOUBLE PRECISION NOT NULL
  );
  CREATE TABLE IF NOT EXISTS work_chunks (
    batch_id TEXT NOT NULL,
    chunk INTEGER NOT NULL,
    done INTEGER NOT NULL DEFAULT 0,
    owner TEXT,
    lease_until DOUBLE PRECISION NOT NULL DEFAULT 0,
    PRIMARY KEY (batch_id, chunk)
  );
  CREATE TABLE IF NOT EXISTS mail_host_connections (
    budget_key TEXT NOT NULL,
    owner TEXT NOT NULL,
    open INTEGER NOT NULL,
    PRIMARY KEY (budget_key, owner)
  );
  CREATE TABLE IF NOT EXISTS host_tokens (
    bucket TEXT PRIMARY KEY,
    tokens DOUBLE PRECISION NOT NULL,
    at DOUBLE PRECISION NOT NULL
  );
`;

/** Who claimed an upload, a request or a webhook delivery in progress (TEXT): let go when that process is gone. */
export const ownerColumns = [
  ['batches', 'import_owner'],
  ['idempotency', 'owner'],
  ['deliveries', 'claimed_by'],
] as const;

/** PostgreSQL's statements adding the owner columns, where missing. */
export const postgresOwnerColumns = ownerColumns
  .map(([table, column]) => `ALTER TABLE ${table} ADD COLUMN IF NOT EXISTS ${column} TEXT;`)
  .join('\n');

/** Which process holds a domain of the live engine's queue (added in SQLite's version 8, PostgreSQL's 3). */
export const leaseColumnsSql = 'ALTER TABLE probe_domains ADD COLUMN lease_owner TEXT;';

/** Counted in `mail_host_connections` instead: one count for all processes could not tell whose they were. */
export const droppedColumns = [['mail_hosts', 'in_flight']] as const;
