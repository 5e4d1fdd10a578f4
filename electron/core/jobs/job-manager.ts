// The app's jobs: made from dropped files, run in the background (several at once, sharing the key's
// budget), reported as they go, and resumed when the app starts again. Trouble while a job runs (the
// service out of reach, say) leaves it where it was, with the reason, ready to resume: batches already
// paid for are always read back.
import { copyFile, mkdir, rm, stat } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { AppError } from '../../common/app-error.ts';
import type { EventPayload, ExportFile, JobListItem, JobOverview, ListSummary } from '../../common/contract.ts';
import { isFinishedPhase } from '../../common/job-phases.ts';
import { ServiceClientError, explainClientError } from '../client/client-errors.ts';
import { sameService, type ServiceClients } from '../connections/service-ref.ts';
import { inputFingerprint } from './input-fingerprint.ts';
import type { Cost } from './job-cost.ts';
import type { JobProgress } from './job-runner.ts';
import { jobSettings, type JobSettings } from './job-settings.ts';
import { displayNameOf, openJobStore, type JobRecord } from './job-store.ts';
import { createCleaner } from './list-cleaner.ts';
import { summariseJob } from './list-summary.ts';

export type JobManagerDeps = {
  dataDir: string;
  /** The services jobs are sent to: the current one for new jobs, and each job's own for resuming it. */
  clients: ServiceClients;
  emitProgress(payload: EventPayload<'jobs:didProgress'>): void;
  log?: (message: string) => void;
};

export type JobManager = ReturnType<typeof createJobManager>;

function userMessage(error: unknown): string {
  if (error instanceof ServiceClientError) return explainClientError(error);
  return error instanceof Error ? error.message : String(error);
}

export function createJobManager(deps: JobManagerDeps) {
  const store = openJobStore(deps.dataDir);
  const cleaner = createCleaner(store);
  const running = new Map<string, { controller: AbortController; done: Promise<void> }>();
  const costs = new Map<string, Cost>();
  const live = new Map<string, { checked: number; total: number }>();
  const log = deps.log ?? ((message: string) => console.error(message));

  function progressOf(job: JobRecord): { checked: number; total: number } {
    const toSend = Math.min(job.precheck?.toCheck ?? 0, job.settings.sendLimit ?? Number.POSITIVE_INFINITY);
    return live.get(job.id) ?? { checked: job.checked, total: toSend };
  }

  function overview(job: JobRecord): JobOverview {
    const progress = progressOf(job);
    return {
      jobId: job.id,
      fileName: displayNameOf(job),
      phase: job.phase,
      rows: job.rowsTotal,
      headers: job.headers,
      columnIndex: job.columnIndex,
      hasHeader: job.hasHeader,
      precheck: job.precheck ?? {
        toCheck: 0,
        duplicates: 0,
        badSyntax: 0,
        noAddress: 0,
        role: 0,
        disposable: 0,
        suggestions: 0,
      },
      cost: costs.get(job.id) ?? { checks: progress.total, mode: 'sandbox', covered: true },
      progress,
      ...(isFinishedPhase(job.phase) ? { summary: summariseJob(store, job) } : {}),
      error: job.error,
    };
  }

  function jobOrThrow(jobId: string): JobRecord {
    const job = store.getJob(jobId);
    if (!job) throw new AppError('not_found', 'That job no longer exists.');
    return job;
  }

  function report(jobId: string, progress?: JobProgress) {
    if (progress?.phase === 'verifying') live.set(jobId, { checked: progress.checked, total: progress.total });
    const job = store.getJob(jobId)!;
    deps.emitProgress({ jobId, phase: job.phase, ...progressOf(job), error: job.error });
  }

  function launch(jobId: string): void {
    if (running.has(jobId)) return;
    const controller = new AbortController();
    store.setError(jobId, null);
    const done = (async () => {
      try {
        const job = store.getJob(jobId)!;
        const client = await deps.clients.clientFor(job.service);
        await cleaner.run(job, client, {
          signal: controller.signal,
          onProgress: (progress) => report(jobId, progress),
        });
      } catch (error) {
        if (controller.signal.aborted) return;
        // The job stays where it was: whatever was paid for can still be read when it resumes.
        log(`job ${jobId} paused: ${userMessage(error)}`);
        store.setError(jobId, userMessage(error));
      } finally {
        running.delete(jobId);
        live.delete(jobId);
      }
      if (store.getJob(jobId)) report(jobId);
    })().catch((error: unknown) => log(`job ${jobId}: ${userMessage(error)}`));
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
      const job = store.createJob(source.path, '', jobSettings({ displayName: source.fileName, column }));
      try {
        let inputPath = source.path;
        if (source.isUpload) {
          const dir = join(deps.dataDir, 'inputs');
          await mkdir(dir, { recursive: true, mode: 0o700 });
          inputPath = join(dir, `${job.id}.csv`);
          await copyFile(source.path, inputPath);
        }
        store.updateInput(job.id, inputPath, await inputFingerprint(inputPath));
        const service = await deps.clients.current();
        store.setService(job.id, service);
        const prepared = await cleaner.prepare(store.getJob(job.id)!);
        costs.set(job.id, await cleaner.estimate(prepared, await deps.clients.clientFor(service)));
        return overview(prepared);
      } catch (error) {
        // A list that cannot be read leaves nothing behind: no job in the recent lists, no copy kept.
        store.deleteJob(job.id);
        if (source.isUpload) await rm(join(deps.dataDir, 'inputs', `${job.id}.csv`), { force: true });
        if (error instanceof AppError) throw error;
        throw new AppError('unreadable_file', userMessage(error));
      }
    },

    /** A job as it stands; its cost is worked out again when the app restarted since it was read. */
    async get(jobId: string): Promise<JobOverview> {
      const job = jobOrThrow(jobId);
      if (job.phase === 'imported' && !costs.has(jobId)) {
        costs.set(jobId, await cleaner.estimate(job, await deps.clients.clientFor(job.service)));
      }
      return overview(job);
    },

    list(): JobListItem[] {
      return store.recentJobs(20).map((job) => ({
        jobId: job.id,
        fileName: displayNameOf(job),
        phase: job.phase,
        progress: progressOf(job),
        createdAt: new Date(job.createdAt).toISOString(),
      }));
    },

    /** Starts checking, or resumes a job that stopped on the way (the app closed, the service was out of reach). */
    async start(jobId: string, limit?: number): Promise<JobOverview> {
      let job = jobOrThrow(jobId);
      if (job.phase === 'importing') throw new AppError('bad_request', 'This list is still being read.');
      if (job.phase === 'imported') {
        if (limit !== undefined) {
          store.updateSettings(jobId, { ...job.settings, sendLimit: limit });
          job = store.getJob(jobId)!;
        }
        // Nothing is sent yet: it goes to the service chosen now, at that service's cost.
        const service = await deps.clients.current();
        if (!sameService(service, job.service)) {
          store.setService(jobId, service);
          job = store.getJob(jobId)!;
          costs.set(jobId, await cleaner.estimate(job, await deps.clients.clientFor(service)));
        }
        const cost = costs.get(jobId);
        if (cost && !cost.covered && (limit === undefined || limit > (cost.freeRemaining ?? 0) + (cost.balance ?? 0))) {
          throw new AppError('bad_request', 'The account does not have enough credits for this list.');
        }
      }
      if (!isFinishedPhase(job.phase)) launch(jobId);
      return overview(store.getJob(jobId)!);
    },

    /** Cancels at the service and keeps what was checked: the job reads those verdicts, then ends canceled. */
    async cancel(jobId: string): Promise<JobOverview> {
      const job = jobOrThrow(jobId);
      if (job.phase === 'imported') store.setPhase(jobId, 'canceled', 'Canceled before anything was sent.');
      else if (!isFinishedPhase(job.phase)) {
        await stopRunning(jobId);
        await cleaner.cancel(store.getJob(jobId)!, await deps.clients.clientFor(job.service));
        launch(jobId);
        await running.get(jobId)?.done;
      }
      return overview(store.getJob(jobId)!);
    },

    async export(
      jobId: string,
      choices: Pick<JobSettings, 'keep'> & Partial<Pick<JobSettings, 'remove' | 'perStatusFiles'>>,
    ): Promise<{ files: ExportFile[]; summary: ListSummary }> {
      const job = jobOrThrow(jobId);
      if (!isFinishedPhase(job.phase)) throw new AppError('bad_request', 'The list is not finished yet.');
      const outDir = join(deps.dataDir, 'exports', jobId);
      await mkdir(outDir, { recursive: true, mode: 0o700 });
      const { keep, remove = job.settings.remove, perStatusFiles = job.settings.perStatusFiles } = choices;
      store.updateSettings(jobId, { ...job.settings, keep, remove, perStatusFiles });
      const result = await cleaner.export(store.getJob(jobId)!, outDir);
      const files: ExportFile[] = [];
      for (const { kind, path } of result.files) {
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
      for (const job of store.jobsInFlight()) launch(job.id);
    },

    async close(): Promise<void> {
      await Promise.all([...running.keys()].map(stopRunning));
      store.close();
    },
  };
}
