// A job's state in SQLite: the input's rows and pre-check flags, the unique addresses to check,
// the batches made (with the Idempotency-Keys used) and the results read with the cursor reached.
// Everything a crash must not lose is committed together, page by page.
import { randomBytes } from 'node:crypto';
import { basename } from 'node:path';
import { openDatabase, sql, transaction, type Database } from '../storage/sqlite.ts';

export type JobPhase = 'importing' | 'imported' | 'submitting' | 'reading' | 'done' | 'failed' | 'canceled';

export type JobSettings = {
  /** The name the person knows the file by (an uploaded file is kept under the job's id). */
  displayName?: string;
  column?: string;
  keep: string[];
  neutraliseFormulas: boolean;
  bom: boolean;
  maxBatchSize: number;
};

export type JobRecord = {
  id: string;
  inputPath: string;
  fingerprint: string;
  settings: JobSettings;
  phase: JobPhase;
  columnIndex: number;
  hasHeader: boolean;
  delimiter: string;
  headers: string[];
  rowsTotal: number;
  error: string | null;
};

/** The name the person knows the job's file by. */
export function displayNameOf(job: Pick<JobRecord, 'inputPath' | 'settings'>): string {
  return job.settings.displayName ?? basename(job.inputPath);
}

export type BatchPart = {
  part: number;
  idempotencyKey: string;
  batchId: string | null;
  firstSeq: number;
  lastSeq: number;
  cursor: string | null;
  skip: number;
  status: string;
};

export type AddressResult = { email: string; result: string; billed: boolean; reason?: string };

export function openJobStore(path: string): JobStore {
  const db = openDatabase(path);
  db.exec(`
    CREATE TABLE IF NOT EXISTS jobs (
      id TEXT PRIMARY KEY, input_path TEXT NOT NULL, fingerprint TEXT NOT NULL, settings TEXT NOT NULL,
      phase TEXT NOT NULL, column_index INTEGER NOT NULL DEFAULT -1, has_header INTEGER NOT NULL DEFAULT 0,
      delimiter TEXT NOT NULL DEFAULT ',', headers TEXT NOT NULL DEFAULT '[]', rows_total INTEGER NOT NULL DEFAULT 0,
      error TEXT, created_at INTEGER NOT NULL, updated_at INTEGER NOT NULL
    );
    CREATE TABLE IF NOT EXISTS job_rows (
      job_id TEXT NOT NULL, row_index INTEGER NOT NULL, address_key TEXT, status TEXT NOT NULL,
      first INTEGER NOT NULL DEFAULT 0, suggestion TEXT,
      PRIMARY KEY (job_id, row_index)
    ) WITHOUT ROWID;
    CREATE TABLE IF NOT EXISTS job_addresses (
      job_id TEXT NOT NULL, key TEXT NOT NULL, address TEXT NOT NULL, seq INTEGER,
      role INTEGER NOT NULL, disposable INTEGER NOT NULL, result TEXT, billed INTEGER NOT NULL DEFAULT 0, reason TEXT,
      PRIMARY KEY (job_id, key)
    ) WITHOUT ROWID;
    CREATE UNIQUE INDEX IF NOT EXISTS job_addresses_seq ON job_addresses (job_id, seq);
    CREATE TABLE IF NOT EXISTS job_batches (
      job_id TEXT NOT NULL, part INTEGER NOT NULL, idempotency_key TEXT NOT NULL, batch_id TEXT,
      first_seq INTEGER NOT NULL, last_seq INTEGER NOT NULL, cursor TEXT, skip INTEGER NOT NULL DEFAULT 0,
      status TEXT NOT NULL DEFAULT 'pending',
      PRIMARY KEY (job_id, part)
    );
  `);
  return new JobStore(db);
}

type JobRow = {
  id: string;
  input_path: string;
  fingerprint: string;
  settings: string;
  phase: JobPhase;
  column_index: number;
  has_header: number;
  delimiter: string;
  headers: string;
  rows_total: number;
  error: string | null;
};

function toJob(row: JobRow): JobRecord {
  return {
    id: row.id,
    inputPath: row.input_path,
    fingerprint: row.fingerprint,
    settings: JSON.parse(row.settings),
    phase: row.phase,
    columnIndex: row.column_index,
    hasHeader: row.has_header === 1,
    delimiter: row.delimiter,
    headers: JSON.parse(row.headers),
    rowsTotal: row.rows_total,
    error: row.error,
  };
}

export class JobStore {
  readonly db: Database;
  constructor(db: Database) {
    this.db = db;
  }

  close(): void {
    this.db.close();
  }

  updateInput(id: string, inputPath: string, fingerprint: string): void {
    sql(this.db, 'UPDATE jobs SET input_path = ?, fingerprint = ? WHERE id = ?').run(inputPath, fingerprint, id);
  }

  updateSettings(id: string, settings: JobSettings): void {
    sql(this.db, 'UPDATE jobs SET settings = ? WHERE id = ?').run(JSON.stringify(settings), id);
  }

  createJob(inputPath: string, fingerprint: string, settings: JobSettings): JobRecord {
    const id = `job_${randomBytes(8).toString('hex')}`;
    const now = Date.now();
    sql(
      this.db,
      'INSERT INTO jobs (id, input_path, fingerprint, settings, phase, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)',
    ).run(id, inputPath, fingerprint, JSON.stringify(settings), 'importing', now, now);
    return this.getJob(id)!;
  }

  getJob(id: string): JobRecord | undefined {
    const row = sql(this.db, 'SELECT * FROM jobs WHERE id = ?').get(id) as JobRow | undefined;
    return row && toJob(row);
  }

  /** The newest jobs that got past reading their file, newest first. */
  recentJobs(limit: number): (JobRecord & { createdAt: number })[] {
    const rows = sql(
      this.db,
      "SELECT * FROM jobs WHERE phase <> 'importing' AND NOT (phase = 'failed' AND rows_total = 0) ORDER BY created_at DESC LIMIT ?",
    ).all(limit) as (JobRow & {
      created_at: number;
    })[];
    return rows.map((row) => ({ ...toJob(row), createdAt: row.created_at }));
  }

  /** The newest job for this input that has not finished, if any. */
  unfinishedJobFor(inputPath: string): JobRecord | undefined {
    const row = sql(
      this.db,
      "SELECT * FROM jobs WHERE input_path = ? AND phase NOT IN ('done', 'failed', 'canceled') ORDER BY created_at DESC LIMIT 1",
    ).get(inputPath) as JobRow | undefined;
    return row && toJob(row);
  }

  setPhase(id: string, phase: JobPhase, error: string | null = null): void {
    sql(this.db, 'UPDATE jobs SET phase = ?, error = ?, updated_at = ? WHERE id = ?').run(phase, error, Date.now(), id);
  }

  setLayout(
    id: string,
    layout: { columnIndex: number; hasHeader: boolean; delimiter: string; headers: string[] },
  ): void {
    sql(this.db, 'UPDATE jobs SET column_index = ?, has_header = ?, delimiter = ?, headers = ? WHERE id = ?').run(
      layout.columnIndex,
      layout.hasHeader ? 1 : 0,
      layout.delimiter,
      JSON.stringify(layout.headers),
      id,
    );
  }

  /** Starts an import over: whatever a crashed import left is dropped (nothing was sent yet). */
  clearImport(id: string): void {
    transaction(this.db, () => {
      sql(this.db, 'DELETE FROM job_rows WHERE job_id = ?').run(id);
      sql(this.db, 'DELETE FROM job_addresses WHERE job_id = ?').run(id);
    });
  }

  finishImport(id: string, rowsTotal: number): void {
    sql(this.db, "UPDATE jobs SET rows_total = ?, phase = 'imported', updated_at = ? WHERE id = ?").run(
      rowsTotal,
      Date.now(),
      id,
    );
  }

  /** Plans the batches once, with their Idempotency-Keys, before any is sent. */
  planBatches(id: string, maxBatchSize: number): BatchPart[] {
    transaction(this.db, () => {
      const existing = sql(this.db, 'SELECT COUNT(*) AS n FROM job_batches WHERE job_id = ?').get(id) as { n: number };
      if (existing.n > 0) return;
      const { n } = sql(this.db, 'SELECT COUNT(seq) AS n FROM job_addresses WHERE job_id = ?').get(id) as { n: number };
      const insert = sql(
        this.db,
        'INSERT INTO job_batches (job_id, part, idempotency_key, first_seq, last_seq) VALUES (?, ?, ?, ?, ?)',
      );
      for (let part = 0; part * maxBatchSize < n; part += 1) {
        insert.run(
          id,
          part,
          `sift-${id}-part-${part}-${randomBytes(6).toString('hex')}`,
          part * maxBatchSize + 1,
          Math.min(n, (part + 1) * maxBatchSize),
        );
      }
      sql(this.db, "UPDATE jobs SET phase = 'submitting', updated_at = ? WHERE id = ?").run(Date.now(), id);
    });
    return this.batches(id);
  }

  batches(id: string): BatchPart[] {
    return (
      sql(this.db, 'SELECT * FROM job_batches WHERE job_id = ? ORDER BY part').all(id) as Record<string, unknown>[]
    ).map((row) => ({
      part: row.part as number,
      idempotencyKey: row.idempotency_key as string,
      batchId: row.batch_id as string | null,
      firstSeq: row.first_seq as number,
      lastSeq: row.last_seq as number,
      cursor: row.cursor as string | null,
      skip: row.skip as number,
      status: row.status as string,
    }));
  }

  addressesForPart(id: string, part: BatchPart): string[] {
    return (
      sql(this.db, 'SELECT address FROM job_addresses WHERE job_id = ? AND seq BETWEEN ? AND ? ORDER BY seq').all(
        id,
        part.firstSeq,
        part.lastSeq,
      ) as { address: string }[]
    ).map((row) => row.address);
  }

  setBatchId(id: string, part: number, batchId: string): void {
    sql(this.db, "UPDATE job_batches SET batch_id = ?, status = 'running' WHERE job_id = ? AND part = ?").run(
      batchId,
      id,
      part,
    );
  }

  setBatchStatus(id: string, part: number, status: string): void {
    sql(this.db, 'UPDATE job_batches SET status = ? WHERE job_id = ? AND part = ?').run(status, id, part);
  }

  /** One page of results and the cursor after it, in one transaction: a crash keeps both or neither. */
  recordResults(id: string, part: number, rows: AddressResult[], cursor: string | null, skip: number): void {
    transaction(this.db, () => {
      const update = sql(
        this.db,
        'UPDATE job_addresses SET result = ?, billed = ?, reason = ? WHERE job_id = ? AND key = ?',
      );
      for (const row of rows)
        update.run(row.result, row.billed ? 1 : 0, row.reason ?? null, id, row.email.toLowerCase());
      sql(this.db, 'UPDATE job_batches SET cursor = ?, skip = ? WHERE job_id = ? AND part = ?').run(
        cursor,
        skip,
        id,
        part,
      );
    });
  }

  counts(id: string): { addresses: number; checked: number } {
    // Only addresses with a seq are sent; the others got their verdict locally.
    return sql(
      this.db,
      'SELECT COUNT(seq) AS addresses, COUNT(CASE WHEN seq IS NOT NULL THEN result END) AS checked FROM job_addresses WHERE job_id = ?',
    ).get(id) as {
      addresses: number;
      checked: number;
    };
  }
}
