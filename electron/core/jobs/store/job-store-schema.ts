// The jobs catalog's schema and its migrations, by `user_version`:
//   0 → 2  a new data folder: the catalog table
//   1 → 2  Sift 0.1 kept every job's rows in this one file (job_rows, job_addresses, job_batches, with no
//          user_version set); each job moves to a list file of its own, then the old tables go.
//   2 → 3  key_mode: whether the job's verdicts came with a sandbox key (demo verdicts) or a live one
import type { PrecheckCounts } from '../../../common/contract.ts';
import { hasColumn, sql, transaction, type Database } from '../../storage/sqlite.ts';
import { rowsPerChunk, type ListStore, type NewAddress, type VerdictRow } from './list-types.ts';

export const jobCatalogVersion = 3;
const currentVersion = jobCatalogVersion;

const catalogTable = `
  CREATE TABLE IF NOT EXISTS jobs (
    id TEXT PRIMARY KEY, input_path TEXT NOT NULL, fingerprint TEXT NOT NULL, content_hash TEXT,
    settings TEXT NOT NULL, phase TEXT NOT NULL, column_index INTEGER NOT NULL DEFAULT -1,
    has_header INTEGER NOT NULL DEFAULT 0, delimiter TEXT NOT NULL DEFAULT ',', headers TEXT NOT NULL DEFAULT '[]',
    rows_total INTEGER NOT NULL DEFAULT 0, precheck TEXT, checked INTEGER NOT NULL DEFAULT 0, error TEXT, service TEXT,
    created_at INTEGER NOT NULL, updated_at INTEGER NOT NULL, key_mode TEXT
  );
  CREATE INDEX IF NOT EXISTS jobs_by_input ON jobs (input_path, created_at);
  CREATE INDEX IF NOT EXISTS jobs_by_phase ON jobs (phase);
`;

function hasTable(db: Database, name: string): boolean {
  return sql(db, "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?").get(name) !== undefined;
}

export function migrateJobCatalog(db: Database, listOf: (jobId: string) => ListStore): void {
  const { user_version: version } = sql(db, 'PRAGMA user_version').get() as { user_version: number };
  if (version >= currentVersion) return;
  transaction(db, () => {
    if (hasTable(db, 'job_rows')) {
      db.exec(`
        ALTER TABLE jobs ADD COLUMN content_hash TEXT;
        ALTER TABLE jobs ADD COLUMN precheck TEXT;
        ALTER TABLE jobs ADD COLUMN checked INTEGER NOT NULL DEFAULT 0;
        ALTER TABLE jobs ADD COLUMN service TEXT;
      `);
      const jobs = sql(db, "SELECT id FROM jobs WHERE phase <> 'importing'").all() as { id: string }[];
      for (const job of jobs) moveLegacyJob(db, job.id, listOf(job.id));
      // An import that never finished starts again from the file.
      db.exec(`
        UPDATE jobs SET rows_total = 0 WHERE phase = 'importing';
        DROP TABLE job_rows; DROP TABLE job_addresses; DROP TABLE job_batches;
      `);
      // Sift 0.1 named the batch size maxBatchSize.
      db.exec(`UPDATE jobs SET settings = json_remove(json_set(settings, '$.addressesPerBatch',
        COALESCE(json_extract(settings, '$.maxBatchSize'), 50000)), '$.maxBatchSize')`);
    }
    const hadCatalog = hasTable(db, 'jobs');
    db.exec(catalogTable);
    if (hadCatalog && !hasColumn(db, 'jobs', 'key_mode')) {
      db.exec('ALTER TABLE jobs ADD COLUMN key_mode TEXT');
    }
    db.exec(`PRAGMA user_version = ${currentVersion}`);
  });
}

type LegacyAddress = {
  id: number;
  key: string;
  address: string;
  seq: number | null;
  role: number;
  disposable: number;
  result: string | null;
  billed: number;
  reason: string | null;
  first_row: number;
  suggestion: string | null;
};

type LegacyPart = {
  part: number;
  idempotency_key: string;
  batch_id: string | null;
  first_seq: number;
  last_seq: number;
  cursor: string | null;
  skip: number;
  status: string;
};

/** One Sift 0.1 job into its own list file, streamed: ids in order of first appearance, as a fresh import gives. */
function moveLegacyJob(db: Database, jobId: string, list: ListStore): void {
  list.clear();
  db.exec(`DROP TABLE IF EXISTS temp.legacy_ids;
    CREATE TEMP TABLE legacy_ids (key TEXT PRIMARY KEY, id INTEGER NOT NULL, first_row INTEGER NOT NULL)`);
  sql(
    db,
    `INSERT INTO temp.legacy_ids (key, id, first_row)
     SELECT address_key, ROW_NUMBER() OVER (ORDER BY MIN(row_index)), MIN(row_index) FROM job_rows
     WHERE job_id = ? AND address_key IS NOT NULL GROUP BY address_key`,
  ).run(jobId);
  const addresses = sql(
    db,
    `SELECT i.id, a.key, a.address, a.seq, a.role, a.disposable, a.result, a.billed, a.reason, i.first_row,
       (SELECT suggestion FROM job_rows r WHERE r.job_id = a.job_id AND r.row_index = i.first_row) AS suggestion
     FROM temp.legacy_ids i JOIN job_addresses a ON a.job_id = ? AND a.key = i.key ORDER BY i.id`,
  );
  let batch: NewAddress[] = [];
  let verdicts: VerdictRow[] = [];
  const flush = () => {
    list.appendImport(batch, 0, new Int32Array(0));
    list.recordResults(0, verdicts, {});
    batch = [];
    verdicts = [];
  };
  for (const found of addresses.iterate(jobId)) {
    const row = found as LegacyAddress;
    batch.push({
      id: row.id,
      key: row.key,
      address: row.address,
      firstRow: row.first_row,
      sendable: row.seq !== null,
      role: row.role === 1,
      disposable: row.disposable === 1,
      suggestion: row.suggestion,
    });
    if (row.seq !== null && row.result !== null) {
      verdicts.push({ id: row.id, result: row.result, billed: row.billed === 1, reason: row.reason });
    }
    if (batch.length === rowsPerChunk) flush();
  }
  flush();

  const rows = sql(
    db,
    `SELECT COALESCE(i.id, 0) AS id FROM job_rows r LEFT JOIN temp.legacy_ids i ON i.key = r.address_key
     WHERE r.job_id = ? ORDER BY r.row_index`,
  );
  let chunk: number[] = [];
  let firstRow = 1;
  for (const row of rows.iterate(jobId)) {
    chunk.push((row as { id: number }).id);
    if (chunk.length === rowsPerChunk) {
      list.appendImport([], firstRow, Int32Array.from(chunk));
      firstRow += chunk.length;
      chunk = [];
    }
  }
  if (chunk.length > 0) list.appendImport([], firstRow, Int32Array.from(chunk));

  const parts = sql(db, 'SELECT * FROM job_batches WHERE job_id = ? ORDER BY part').all(jobId) as LegacyPart[];
  if (parts.length > 0) {
    // 0.1 split the sendable addresses, in order, into equal runs: the same split by the largest run's size.
    const size = Math.max(...parts.map((part) => part.last_seq - part.first_seq + 1));
    const keys = new Map(parts.map((part) => [part.part, part.idempotency_key]));
    list.planParts(size, (part) => keys.get(part)!);
    for (const part of parts) {
      if (part.batch_id) list.setPartBatch(part.part, part.batch_id);
      list.setPartStatus(part.part, part.status);
      list.recordResults(part.part, [], { cursor: part.cursor, skip: part.skip });
    }
  }

  const precheck = sql(
    db,
    `SELECT
       (SELECT COUNT(seq) FROM job_addresses WHERE job_id = $job) AS toCheck,
       (SELECT COUNT(*) FROM job_rows WHERE job_id = $job AND status = 'ok' AND first = 0) AS duplicates,
       (SELECT COUNT(*) FROM job_rows WHERE job_id = $job AND status = 'syntax') AS badSyntax,
       (SELECT COUNT(*) FROM job_rows WHERE job_id = $job AND status = 'no_address') AS noAddress,
       (SELECT COALESCE(SUM(role), 0) FROM job_addresses WHERE job_id = $job AND seq IS NOT NULL) AS role,
       (SELECT COALESCE(SUM(disposable), 0) FROM job_addresses WHERE job_id = $job AND seq IS NOT NULL) AS disposable,
       (SELECT COUNT(*) FROM job_rows WHERE job_id = $job AND status = 'ok' AND first = 1 AND suggestion IS NOT NULL)
         AS suggestions`,
  ).get({ job: jobId }) as PrecheckCounts;
  sql(db, 'UPDATE jobs SET precheck = ?, checked = ? WHERE id = ?').run(
    JSON.stringify(precheck),
    list.checkedCount(),
    jobId,
  );
}
