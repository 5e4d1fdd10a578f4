// The app's jobs: made from dropped files, run in the background (several at once, sharing the key's
// budget), reported as they go, resumed when the app starts again. Trouble while a job runs (the service
// out of reach, say) leaves it where it was, ready to resume: batches paid for are always read back.
import { copyFile, mkdir } from 'node:fs/promises';
import { dirname } from 'node:path';
import { AppError } from '../../common/app-error.ts';
import type { EventPayload, ExportFile, JobListItem, JobOverview, ListSummary } from '../../common/contract.ts';
import type { JobProgressView } from '../../common/job-schemas.ts';
import { isFinishedPhase } from '../../common/job-phases.ts';
import { sameService, type ServiceClients } from '../connections/service-ref.ts';
import { inputFingerprint } from './import/index.ts';
import { annotatedCsvOf } from './export/index.ts';
import { costOfChecks, type Cost, type JobProgress } from './run/index.ts';
import { jobSettings, settingsForExport, type ExportChoicesOf, type JobSettings } from './job-settings.ts';
import {
  appFilesOf,
  exportedFiles,
  exportFolder,
  finishedOrThrow,
  inputCopyPath,
  openJobStore,
  removeFiles,
  sizeOnDisk,
  type JobRecord,
} from './store/index.ts';
import { createCleaner } from './list-cleaner.ts';
import { writeJobReport } from './report/report-file.ts';
import { rereadBeforeSending, userMessage } from './job-messages.ts';
import { suppressionSource } from '../suppression/index.ts';
import { rulesSource } from '../rules/index.ts';
import { scoreWeightsSource } from '../scoring/score-weights-file.ts';
import { sheetToRead } from '../lists/sheet-guess.ts';
import type { JobManager } from './job-manager-types.ts';
import { createRowExplorer, jobReads, jobViews, searchIndexes, summariseJob } from './views/index.ts';
export type { JobManager } from './job-manager-types.ts';

export type JobManagerDeps = {
  dataDir: string;
  /** The services jobs are sent to: the current one for new jobs, and each job's own for resuming it. */
  clients: ServiceClients;
  emitProgress(payload: EventPayload<'jobs:didProgress'>): void;
  log?: (message: string) => void;
  /** The clock the verdict cache's ages are read against. */
  now?: () => number;
};

export function createJobManager(deps: JobManagerDeps): JobManager {
  const store = openJobStore(deps.dataDir);
  const running = new Map<string, { controller: AbortController; done: Promise<void> }>();
  const costs = new Map<string, Cost>();
  const live = new Map<string, JobProgressView>();
  const log = deps.log ?? ((message: string) => console.error(message));
  const cleaner = createCleaner(store, {
    cacheDir: deps.dataDir,
    now: deps.now,
    warn: log,
    suppression: suppressionSource(deps.dataDir),
    rules: rulesSource(deps.dataDir),
  });
  const { progressOf, overview, listItem } = jobViews(store, costs, live);
  const indexes = searchIndexes(log);
  const weights = scoreWeightsSource(deps.dataDir);
  const explorer = createRowExplorer(store, indexes, weights.current);

  function jobOrThrow(jobId: string): JobRecord {
    const job = store.getJob(jobId);
    if (!job) throw new AppError('not_found', 'That job no longer exists.');
    return job;
  }

  function report(jobId: string, progress?: JobProgress) {
    if (progress?.phase === 'verifying') {
      const { phase: _phase, ...view } = progress;
      live.set(jobId, view);
    }
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
        prepareSearch(job);
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

  const finishedJob = (jobId: string) => finishedOrThrow(jobOrThrow(jobId));
  /** Searchable when the results open: row text and index are made on their thread from the list's reading on. */
  const prepareSearch = (job: JobRecord) => void explorer.prepareSearch(job).catch((error) => log(userMessage(error)));
  /** Removes a job, its list and the files the app made for it; answers the bytes freed. */
  async function deleteJob(jobId: string): Promise<number> {
    const listBytes = await sizeOnDisk(store.listPath(jobId));
    costs.delete(jobId);
    cleaner.forget(jobId);
    await explorer.forget(jobId);
    store.deleteJob(jobId);
    return listBytes + (await removeFiles(appFilesOf(deps.dataDir, jobId)));
  }

  /** Reads a list not sent yet again from the job's own input with changed settings; on failure, as it was. */
  async function reread(jobId: string, change: (settings: JobSettings) => JobSettings): Promise<JobOverview> {
    const job = jobOrThrow(jobId);
    if (job.phase !== 'imported')
      throw new AppError('bad_request', 'Only a list not yet cleaned can be read again with other choices.');
    const client = await deps.clients.clientFor(job.service);
    await explorer.forget(jobId);
    store.reimport(jobId, change(job.settings));
    cleaner.forget(jobId);
    costs.delete(jobId);
    try {
      const prepared = await cleaner.prepare(store.getJob(jobId)!, client.mode);
      costs.set(jobId, await cleaner.estimate(prepared, client));
      prepareSearch(prepared);
      return overview(prepared);
    } catch (error) {
      // The list stays as it was read before, with its old settings.
      store.reimport(jobId, job.settings);
      await cleaner.prepare(store.getJob(jobId)!, client.mode).catch(() => undefined);
      if (error instanceof AppError) throw error;
      throw new AppError('unreadable_file', userMessage(error));
    }
  }

  async function stopRunning(jobId: string): Promise<void> {
    const run = running.get(jobId);
    if (!run) return;
    run.controller.abort();
    await run.done;
  }

  return {
    ...jobReads(store, jobOrThrow, explorer, weights.current, deps.dataDir),

    async create(
      source: { path: string; fileName: string; isUpload: boolean },
      column?: string,
      sheet?: string,
    ): Promise<JobOverview> {
      const job = store.createJob(source.path, '', jobSettings({ displayName: source.fileName, column, sheet }));
      try {
        let inputPath = source.path;
        if (source.isUpload) {
          inputPath = inputCopyPath(deps.dataDir, job.id);
          await mkdir(dirname(inputPath), { recursive: true, mode: 0o700 });
          await copyFile(source.path, inputPath);
        }
        store.updateInput(job.id, inputPath, await inputFingerprint(inputPath));
        // A workbook whose sheet nobody chose is read from its first sheet with addresses.
        const guessed =
          sheet === undefined && column === undefined ? await sheetToRead(inputPath, source.fileName) : undefined;
        if (guessed) store.updateSettings(job.id, { ...job.settings, sheet: guessed.sheet });
        const service = await deps.clients.current();
        store.setService(job.id, service);
        const client = await deps.clients.clientFor(service);
        const prepared = await cleaner.prepare(store.getJob(job.id)!, client.mode);
        // The same list dropped again with the same column replaces the copy not yet sent: one entry in History.
        for (const twin of store.unsentTwinsOf(prepared)) await deleteJob(twin.id);
        costs.set(job.id, await cleaner.estimate(prepared, client));
        prepareSearch(prepared);
        return overview(prepared);
      } catch (error) {
        // A list that cannot be read leaves nothing behind: no job in the recent lists, no copy kept.
        await deleteJob(job.id);
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

    list: (): JobListItem[] => store.recentJobs(100).map(listItem),

    remap: (jobId: string, column: string) => reread(jobId, (settings) => ({ ...settings, column })),
    chooseSheet: (jobId: string, sheet: string) =>
      reread(jobId, ({ column: _column, ...settings }) => ({ ...settings, sheet })),
    useCache: (jobId: string, useCache: boolean) => reread(jobId, (settings) => ({ ...settings, useCache })),

    async delete(jobId: string): Promise<{ freedBytes: number }> {
      jobOrThrow(jobId);
      if (running.has(jobId)) throw new AppError('bad_request', 'This list is being checked: cancel it first.');
      return { freedBytes: await deleteJob(jobId) };
    },

    /** What Sift's data folder takes on disk: job lists, copies of inputs, exports, the service's data. */
    dataUsage: async (): Promise<{ bytes: number }> => ({ bytes: await sizeOnDisk(deps.dataDir) }),

    /** Starts checking, or resumes a job that stopped on the way (the app closed, the service was out of reach). */
    async start(jobId: string, limit?: number): Promise<JobOverview> {
      let job = jobOrThrow(jobId);
      if (job.phase === 'importing') throw new AppError('bad_request', 'This list is still being read.');
      if (job.phase === 'imported') {
        if (limit !== undefined) {
          store.updateSettings(jobId, { ...job.settings, sendLimit: limit });
          job = store.getJob(jobId)!;
        }
        // Nothing is sent yet: it goes to the service chosen now, at that service's cost, with the earlier
        // verdicts of its kind of key and against the do-not-mail list as it is now. A list that had to be
        // read again for either is shown again with what it costs now, not sent.
        const service = await deps.clients.current();
        const moved = !sameService(service, job.service);
        if (moved) store.setService(jobId, service);
        const client = await deps.clients.clientFor(service);
        const asRead = store.getJob(jobId)!;
        job = await cleaner.prepare(asRead, client.mode);
        if (moved || job !== asRead) costs.set(jobId, await cleaner.estimate(job, client));
        if (job !== asRead) throw new AppError('bad_request', rereadBeforeSending);
        const cost = costs.get(jobId);
        if (cost && !cost.covered && (limit === undefined || limit > (cost.freeRemaining ?? 0) + (cost.balance ?? 0))) {
          throw new AppError('bad_request', 'The account does not have enough credits for this list.');
        }
      }
      if (!isFinishedPhase(job.phase)) launch(jobId);
      return overview(store.getJob(jobId)!);
    },

    /** Checks again, in new batches, what a canceled or failed job left unchecked (what was checked is kept). */
    async retry(jobId: string): Promise<JobOverview> {
      const job = jobOrThrow(jobId);
      if (job.phase !== 'canceled' && job.phase !== 'failed') {
        throw new AppError('bad_request', 'Only a canceled or stopped list can be checked again.');
      }
      // What is left to check is paid for when sent: the account must cover it, as far as it says.
      const unchecked = summariseJob(store, job).unverified;
      const cost = await costOfChecks(await deps.clients.clientFor(job.service), unchecked, 0);
      if (!cost.covered) {
        throw new AppError(
          'bad_request',
          `Checking the ${unchecked} addresses left needs more credits than the account has.`,
        );
      }
      if (cleaner.retry(job) === 0) throw new AppError('bad_request', 'Every address of this list has its verdict.');
      launch(jobId);
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

    report: async (jobId) => writeJobReport(store, finishedJob(jobId), deps.dataDir, deps.clients),

    async export(jobId: string, choices: ExportChoicesOf): Promise<{ files: ExportFile[]; summary: ListSummary }> {
      const job = finishedJob(jobId);
      const outDir = exportFolder(deps.dataDir, jobId);
      await mkdir(outDir, { recursive: true, mode: 0o700 });
      store.updateSettings(jobId, settingsForExport(job.settings, choices, weights.current()));
      const result = await cleaner.export(store.getJob(jobId)!, outDir);
      return { files: await exportedFiles(jobId, result.files), summary: result.summary };
    },
    annotatedCsv: (jobId, outDir) => annotatedCsvOf(store, finishedJob(jobId), outDir),

    resumeUnfinished(): void {
      for (const job of store.jobsInFlight()) launch(job.id);
    },
    busy: () => running.size > 0,

    async close(): Promise<void> {
      await Promise.all([...running.keys()].map(stopRunning));
      await Promise.all([cleaner.settled(), explorer.close()]);
      store.close();
    },
  };
}
