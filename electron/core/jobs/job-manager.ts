// The app's jobs: made from dropped files, run in the background (several at once, sharing the key's
// budget), reported as they go, and resumed when the app starts again after a crash.
import { copyFile, mkdir, stat } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { AppError } from '../../common/app-error.ts';
import type { EventPayload, ExportFile, JobListItem, JobOverview, ListSummary } from '../../common/contract.ts';
import { ServiceClientError, explainClientError } from '../client/client-errors.ts';
import type { ServiceClient } from '../client/service-client.ts';
import { sql } from '../storage/sqlite.ts';
import { cancelJob, estimateCost, prepareJob, runJob, type Cost, type JobProgress } from './clean-job.ts';
import { inputFingerprint } from './input-fingerprint.ts';
import { displayNameOf, openJobStore, type JobRecord, type JobStore } from './job-store.ts';
import { exportJob, summarise } from './list-export.ts';

export type JobManagerDeps = {
  dataDir: string;
  /** The service client, made on first use (starting the embedded service when that is the choice). */
  client(): Promise<ServiceClient>;
  emitProgress(payload: EventPayload<'jobs:didProgress'>): void;
  log?: (message: string) => void;
};

export type JobManager = ReturnType<typeof createJobManager>;

function userMessage(error: unknown): string {
  if (error instanceof ServiceClientError) return explainClientError(error);
  return error instanceof Error ? error.message : String(error);
}

const finishedPhases = ['done', 'failed', 'canceled'];

export function createJobManager(deps: JobManagerDeps) {
  const store: JobStore = openJobStore(join(deps.dataDir, 'jobs.sqlite'));
  const running = new Map<string, { controller: AbortController; done: Promise<void> }>();
  const costs = new Map<string, Cost>();
  const log = deps.log ?? ((message: string) => console.error(message));

  function precheck(jobId: string): JobOverview['precheck'] {
    return sql(
      store.db,
      `SELECT
         (SELECT COUNT(seq) FROM job_addresses WHERE job_id = $id) AS toCheck,
         (SELECT COUNT(*) FROM job_rows WHERE job_id = $id AND status <> 'no_address' AND first = 0) AS duplicates,
         (SELECT COUNT(*) FROM job_rows WHERE job_id = $id AND status = 'syntax') AS badSyntax,
         (SELECT COUNT(*) FROM job_rows WHERE job_id = $id AND status = 'no_address') AS noAddress,
         (SELECT COALESCE(SUM(role), 0) FROM job_addresses WHERE job_id = $id) AS role,
         (SELECT COALESCE(SUM(disposable), 0) FROM job_addresses WHERE job_id = $id) AS disposable,
         (SELECT COUNT(suggestion) FROM job_rows WHERE job_id = $id) AS suggestions`,
    ).get({ id: jobId }) as JobOverview['precheck'];
  }

  function overview(job: JobRecord): JobOverview {
    const counts = store.counts(job.id);
    return {
      jobId: job.id,
      fileName: displayNameOf(job),
      phase: job.phase,
      rows: job.rowsTotal,
      headers: job.headers,
      columnIndex: job.columnIndex,
      hasHeader: job.hasHeader,
      precheck: precheck(job.id),
      cost: costs.get(job.id) ?? { checks: counts.addresses, mode: 'sandbox', covered: true },
      progress: { checked: counts.checked, total: counts.addresses },
      ...(finishedPhases.includes(job.phase) ? { summary: summarise(store, job.id) } : {}),
      error: job.error,
    };
  }

  function jobOrThrow(jobId: string): JobRecord {
    const job = store.getJob(jobId);
    if (!job) throw new AppError('not_found', 'That job no longer exists.');
    return job;
  }

  /** Pushes progress: the runner's own figures while it reads, else counted from the job. */
  function report(jobId: string, progress?: JobProgress) {
    if (progress?.phase === 'verifying') {
      deps.emitProgress({ jobId, phase: 'reading', checked: progress.checked, total: progress.total });
      return;
    }
    const counts = store.counts(jobId);
    deps.emitProgress({ jobId, phase: store.getJob(jobId)!.phase, checked: counts.checked, total: counts.addresses });
  }

  function launch(jobId: string): void {
    if (running.has(jobId)) return;
    const controller = new AbortController();
    const done = (async () => {
      try {
        const client = await deps.client();
        await runJob(store, store.getJob(jobId)!, client, {
          signal: controller.signal,
          onProgress: (progress) => report(jobId, progress),
        });
      } catch (error) {
        if (controller.signal.aborted) return;
        log(`job ${jobId} stopped: ${userMessage(error)}`);
        store.setPhase(jobId, 'failed', userMessage(error));
      } finally {
        running.delete(jobId);
      }
      report(jobId);
    })();
    running.set(jobId, { controller, done });
  }

  async function stopRunning(jobId: string): Promise<void> {
    const run = running.get(jobId);
    if (!run) return;
    run.controller.abort();
    await run.done;
  }

  return {
    store,

    /** Imports and pre-checks a list (nothing is sent); an uploaded file is copied so the job keeps it. */
    async create(source: { path: string; fileName: string; isUpload: boolean }, column?: string): Promise<JobOverview> {
      const job = store.createJob(source.path, '', {
        displayName: source.fileName,
        column,
        keep: ['valid'],
        neutraliseFormulas: true,
        bom: true,
        maxBatchSize: 50_000,
      });
      try {
        let inputPath = source.path;
        if (source.isUpload) {
          const dir = join(deps.dataDir, 'inputs');
          await mkdir(dir, { recursive: true, mode: 0o700 });
          inputPath = join(dir, `${job.id}.csv`);
          await copyFile(source.path, inputPath);
        }
        store.updateInput(job.id, inputPath, await inputFingerprint(inputPath));
        const prepared = await prepareJob(store, store.getJob(job.id)!);
        costs.set(job.id, await estimateCost(store, prepared, await deps.client()));
        return overview(prepared);
      } catch (error) {
        store.setPhase(job.id, 'failed', userMessage(error));
        if (error instanceof AppError) throw error;
        throw new AppError('unreadable_file', userMessage(error));
      }
    },

    /** A job as it stands; its cost is worked out again when the app restarted since it was read. */
    async get(jobId: string): Promise<JobOverview> {
      const job = jobOrThrow(jobId);
      if (job.phase === 'imported' && !costs.has(jobId))
        costs.set(jobId, await estimateCost(store, job, await deps.client()));
      return overview(job);
    },

    list(): JobListItem[] {
      return store.recentJobs(20).map((job) => {
        const counts = store.counts(job.id);
        return {
          jobId: job.id,
          fileName: displayNameOf(job),
          phase: job.phase,
          progress: { checked: counts.checked, total: counts.addresses },
          createdAt: new Date(job.createdAt).toISOString(),
        };
      });
    },

    start(jobId: string): JobOverview {
      const job = jobOrThrow(jobId);
      if (job.phase === 'importing') throw new AppError('bad_request', 'This list is still being read.');
      if (costs.get(jobId)?.covered === false)
        throw new AppError('bad_request', 'The account does not have enough credits for this list.');
      if (!finishedPhases.includes(job.phase)) launch(jobId);
      return overview(store.getJob(jobId)!);
    },

    /** Cancels at the service and keeps what was verified: the job reads those rows, then ends canceled. */
    async cancel(jobId: string): Promise<JobOverview> {
      const job = jobOrThrow(jobId);
      await stopRunning(jobId);
      if (job.phase === 'imported') store.setPhase(jobId, 'canceled', 'Canceled before anything was sent.');
      else if (!finishedPhases.includes(job.phase)) {
        await cancelJob(store, job, await deps.client());
        launch(jobId);
        await running.get(jobId)?.done;
      }
      return overview(store.getJob(jobId)!);
    },

    async export(jobId: string, keep: string[]): Promise<{ files: ExportFile[]; summary: ListSummary }> {
      const job = jobOrThrow(jobId);
      if (!finishedPhases.includes(job.phase)) throw new AppError('bad_request', 'The list is not finished yet.');
      const outDir = join(deps.dataDir, 'exports', jobId);
      await mkdir(outDir, { recursive: true, mode: 0o700 });
      const settings = { ...job.settings, keep };
      store.updateSettings(jobId, settings);
      const result = await exportJob(store, { ...job, settings }, outDir);
      const files: ExportFile[] = [];
      for (const [kind, path] of [
        ['cleaned', result.cleanedPath],
        ['annotated', result.annotatedPath],
        ['summary', result.summaryPath],
      ] as const) {
        const name = basename(path);
        files.push({
          kind,
          name,
          sizeBytes: (await stat(path)).size,
          downloadPath: `downloads/${jobId}/${encodeURIComponent(name)}`,
        });
      }
      return { files, summary: result.summary };
    },

    /** After a restart: jobs that were sending or reading carry on by themselves. */
    resumeUnfinished(): void {
      const rows = sql(store.db, "SELECT id FROM jobs WHERE phase IN ('submitting', 'reading')").all() as {
        id: string;
      }[];
      for (const { id } of rows) launch(id);
    },

    async close(): Promise<void> {
      await Promise.all([...running.keys()].map(stopRunning));
      store.close();
    },
  };
}
