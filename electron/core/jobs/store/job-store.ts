// The catalog of jobs (<data>/jobs.sqlite), owned by this module alone: one row per job with its input,
// settings, phase, layout and counts. Each job's list lives in a file of its own (list-store.ts), which
// this store opens, keeps open and deletes with the job. What it offers is declared in job-record.ts.
import { openReachMemory } from '../../client/reach-store.ts';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { PrecheckCounts } from '../../../common/contract.ts';
import type { JobPhase } from '../../../common/job-phases.ts';
import { embeddedSandbox, type ServiceRef } from '../../connections/service-ref.ts';
import type { KeyMode } from '../../wire/spec.ts';
import { openDatabase, sql, type Database } from '../../storage/sqlite.ts';
import { migrateOrRestore, type StoreFile } from '../../storage/store-versions.ts';
import { jobCatalogVersion, migrateJobCatalog } from './job-store-schema.ts';
import { listStoreVersion } from './list-store-schema.ts';
import { defaultJobSettings, type JobSettings } from '../job-settings.ts';
import { openListStore } from './list-store.ts';
import type { JobRecord, JobStore, ListLayoutRecord } from './job-record.ts';
import type { ListStore } from './list-types.ts';

type JobRow = {
  id: string;
  input_path: string;
  fingerprint: string;
  content_hash: string | null;
  settings: string;
  phase: JobPhase;
  column_index: number;
  has_header: number;
  delimiter: string;
  headers: string;
  rows_total: number;
  precheck: string | null;
  checked: number;
  error: string | null;
  service: string | null;
  key_mode: KeyMode | null;
  created_at: number;
  updated_at: number;
};

function toJob(row: JobRow): JobRecord {
  return {
    id: row.id,
    inputPath: row.input_path,
    fingerprint: row.fingerprint,
    contentHash: row.content_hash,
    // Settings saved by an older Sift lack the newer options: theirs defaults fill in.
    settings: { ...defaultJobSettings, ...(JSON.parse(row.settings) as Partial<JobSettings>) },
    phase: row.phase,
    columnIndex: row.column_index,
    hasHeader: row.has_header === 1,
    delimiter: row.delimiter,
    headers: JSON.parse(row.headers) as string[],
    rowsTotal: row.rows_total,
    precheck: row.precheck === null ? null : (JSON.parse(row.precheck) as PrecheckCounts),
    checked: row.checked,
    error: row.error,
    service: row.service === null ? embeddedSandbox : (JSON.parse(row.service) as ServiceRef),
    keyMode: row.key_mode,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

export function openJobStore(dataDir: string): JobStore {
  const listsDir = join(dataDir, 'jobs');
  mkdirSync(listsDir, { recursive: true, mode: 0o700 });
  const listPath = (jobId: string) => join(listsDir, `${jobId}.sqlite`);
  const sheetCopyPath = (jobId: string) => join(listsDir, `${jobId}.sheet.csv`);
  const catalogPath = join(dataDir, 'jobs.sqlite');
  const db: Database = openDatabase(catalogPath);
  const lists = new Map<string, ListStore>();
  let closed = false;
  migrateOrRestore(catalogPath, db, () => migrateJobCatalog(db, (jobId) => openList(jobId)));

  function openList(jobId: string): ListStore {
    let list = lists.get(jobId);
    if (!list) {
      // Opening would make the file (and its folder) again: whatever still asks after close is a bug to see.
      if (closed) throw new Error(`The job store of ${dataDir} is closed: job ${jobId} cannot be opened.`);
      list = openListStore(listPath(jobId));
      lists.set(jobId, list);
    }
    return list;
  }

  const getJob = (id: string): JobRecord | undefined => {
    const row = sql(db, 'SELECT * FROM jobs WHERE id = ?').get(id) as JobRow | undefined;
    return row && toJob(row);
  };
  const touch = (id: string, assignments: string, ...values: (string | number | null)[]) => {
    sql(db, `UPDATE jobs SET ${assignments}, updated_at = ? WHERE id = ?`).run(...values, Date.now(), id);
  };

  // What was learned of each service (its shortcuts, its batch size), shared with every job on this folder.
  const reach = openReachMemory(dataDir);

  return {
    listPath,
    sheetCopyPath,
    rowsPath: (job: Pick<JobRecord, 'id' | 'inputPath' | 'settings'>) =>
      job.settings.sheet === undefined ? job.inputPath : sheetCopyPath(job.id),
    reach,
    /** The job's list, opened once and kept open while the store is. */
    list: openList,

    close(): void {
      closed = true;
      for (const list of lists.values()) list.close();
      lists.clear();
      reach.close();
      db.close();
    },

    createJob(inputPath: string, fingerprint: string, settings: JobSettings): JobRecord {
      const id = `job_${randomBytes(8).toString('hex')}`;
      const now = Date.now();
      sql(
        db,
        `INSERT INTO jobs (id, input_path, fingerprint, settings, phase, created_at, updated_at)
         VALUES (?, ?, ?, ?, 'importing', ?, ?)`,
      ).run(id, inputPath, fingerprint, JSON.stringify(settings), now, now);
      return getJob(id)!;
    },

    getJob,

    /** The newest jobs that got past reading their file, newest first. */
    recentJobs(limit: number): JobRecord[] {
      const rows = sql(
        db,
        `SELECT * FROM jobs WHERE phase <> 'importing' AND NOT (phase = 'failed' AND rows_total = 0)
         ORDER BY created_at DESC LIMIT ?`,
      ).all(limit) as JobRow[];
      return rows.map(toJob);
    },

    /** Jobs that were sending or reading when Sift stopped. */
    jobsInFlight(): JobRecord[] {
      return (sql(db, "SELECT * FROM jobs WHERE phase IN ('submitting', 'reading')").all() as JobRow[]).map(toJob);
    },

    /** The newest job made from this input, if any. */
    latestJobFor(inputPath: string): JobRecord | undefined {
      const row = sql(db, 'SELECT * FROM jobs WHERE input_path = ? ORDER BY created_at DESC LIMIT 1').get(inputPath) as
        JobRow | undefined;
      return row && toJob(row);
    },

    /** Other jobs read from the same contents with the same column and not sent yet: one such job is enough. */
    unsentTwinsOf(job: JobRecord): JobRecord[] {
      const rows = sql(
        db,
        `SELECT * FROM jobs WHERE id <> ? AND content_hash = ? AND column_index = ? AND phase = 'imported'`,
      ).all(job.id, job.contentHash, job.columnIndex) as JobRow[];
      return rows.map(toJob);
    },

    /** Reads the job's list again from its input (another column, say); nothing has been sent for it. */
    reimport(id: string, settings: JobSettings): void {
      touch(id, "settings = ?, phase = 'importing', error = NULL", JSON.stringify(settings));
    },

    updateInput(id: string, inputPath: string, fingerprint: string): void {
      touch(id, 'input_path = ?, fingerprint = ?', inputPath, fingerprint);
    },

    updateSettings(id: string, settings: JobSettings): void {
      touch(id, 'settings = ?', JSON.stringify(settings));
    },

    /** The service the job is (or will be) sent to. */
    setService(id: string, service: ServiceRef): void {
      touch(id, 'service = ?', JSON.stringify(service));
    },

    /** The kind of key the job is sent with: its verdicts are demo verdicts when it is a sandbox key. */
    setKeyMode(id: string, mode: KeyMode): void {
      touch(id, 'key_mode = ?', mode);
    },

    /** Moves the job on; `error` is what a person is told about how it ended or why it is paused. */
    setPhase(id: string, phase: JobPhase, error: string | null = null): void {
      touch(id, 'phase = ?, error = ?', phase, error);
    },

    /** Trouble that leaves the job where it was, resumable (the service could not be reached, say). */
    setError(id: string, error: string | null): void {
      touch(id, 'error = ?', error);
    },

    setLayout(id: string, layout: ListLayoutRecord): void {
      touch(
        id,
        'column_index = ?, has_header = ?, delimiter = ?, headers = ?',
        layout.columnIndex,
        layout.hasHeader ? 1 : 0,
        layout.delimiter,
        JSON.stringify(layout.headers),
      );
    },

    /** How far an import has got, for whoever watches it. */
    setImportedRows(id: string, rows: number): void {
      touch(id, 'rows_total = ?', rows);
    },

    finishImport(id: string, result: { rowsTotal: number; precheck: PrecheckCounts; contentHash: string }): void {
      touch(
        id,
        "rows_total = ?, precheck = ?, content_hash = ?, phase = 'imported', error = NULL",
        result.rowsTotal,
        JSON.stringify(result.precheck),
        result.contentHash,
      );
    },

    /** Mirrors the list's verdict count, so lists of jobs need not open every job's file. */
    setChecked(id: string, checked: number): void {
      touch(id, 'checked = ?', checked);
    },

    /** Removes the job, its list file and everything in it. */
    deleteJob(id: string): void {
      lists.get(id)?.close();
      lists.delete(id);
      sql(db, 'DELETE FROM jobs WHERE id = ?').run(id);
      for (const suffix of ['', '-wal', '-shm']) rmSync(`${listPath(id)}${suffix}`, { force: true });
      rmSync(sheetCopyPath(id), { force: true });
    },
  };
}

/** The catalog and every list file, with the schema versions this Sift writes (store-versions.ts). */
export function jobStoreFiles(dataDir: string): StoreFile[] {
  const listsDir = join(dataDir, 'jobs');
  const lists = existsSync(listsDir) ? readdirSync(listsDir).filter((name) => name.endsWith('.sqlite')) : [];
  return [
    { path: join(dataDir, 'jobs.sqlite'), known: jobCatalogVersion },
    ...lists.map((name) => ({ path: join(listsDir, name), known: listStoreVersion })),
  ];
}
