// The one sequence that cleans a list, for the app and the CLI alike: find or make the job, read and
// pre-check the list, say what it costs, check it, write the outputs. The CLI runs it whole and prints;
// the app runs its steps as a person moves through the screens and pushes events. Each step's rules
// (when a job is resumed, when a finished job is only exported again) live here once.
import { statSync } from 'node:fs';
import { reachOf } from '../client/reach-store.ts';
import { AppError } from '../../common/app-error.ts';
import { isFinishedPhase } from '../../common/job-phases.ts';
import type { ServiceClient } from '../client/service-client.ts';
import type { AddressIndex } from '../email/address-index.ts';
import { importList, inputFingerprint, loadAddressIndex } from './import/index.ts';
import {
  cancelJob,
  CostNotCovered,
  endRun,
  estimateCost,
  needsService,
  planRetry,
  runJob,
  type RunOptions,
} from './run/index.ts';
import type { JobSettings } from './job-settings.ts';
import { displayNameOf, hasDemoVerdicts, type JobRecord, type JobStore } from './store/index.ts';
import type { KeyMode } from '../wire/spec.ts';
import { exportJob, refreshSummary, type ExportResult } from './export/index.ts';
import { cacheAskFor, rememberVerdicts } from '../cache/index.ts';
import { learnedCatchAllDomains } from '../outcomes/index.ts';

/** A file's size, 0 when it cannot be read (reading the list then says why). */
function fileSize(path: string): number {
  try {
    return statSync(path).size;
  } catch {
    return 0;
  }
}

import type { Cleaner, CleanerOptions, CleanHooks, InputPolicy, ServiceOnItsWay } from './list-cleaner-types.ts';

export type { Cleaner, CleanerOptions, ServiceOnItsWay } from './list-cleaner-types.ts';

export function createCleaner(store: JobStore, options: CleanerOptions = {}): Cleaner {
  const now = options.now ?? Date.now;
  const warn = options.warn ?? ((message: string) => console.error(message));
  /** Verdicts on their way into the cache; what changed is counted when this run got verdicts of its own. */
  const remembering = new Set<Promise<void>>();
  function remember(job: JobRecord, client: ServiceClient, newVerdicts: boolean): void {
    if (!options.cacheDir) return;
    const writing = rememberVerdicts({
      listPath: store.listPath(job.id),
      dataDir: options.cacheDir,
      mode: client.mode,
      service: client.serviceName,
      checkedAt: now(),
    }).then(
      ({ changes }) => void (changes && newVerdicts && store.list(job.id).recordChanges(changes)),
      (error: unknown) => warn(error instanceof Error ? error.message : String(error)),
    );
    remembering.add(writing);
    void writing.finally(() => remembering.delete(writing));
  }

  /** Each job's address index, kept from its import to its last verdict so results need no rebuild. */
  const indexes = new Map<string, AddressIndex>();
  const indexFor = (job: JobRecord) => {
    let index = indexes.get(job.id);
    if (!index) {
      index = loadAddressIndex(store.list(job.id));
      indexes.set(job.id, index);
    }
    return index;
  };

  const cleaner: Cleaner = {
    /**
     * The job for an input file: its unfinished job (only with `resume`), its finished job when the file
     * and column are unchanged and its verdicts are of the kind `mode` gives (demo verdicts are never handed
     * out for a live key's clean), else a new one (`restart` always makes one).
     */
    async jobForInput(
      inputPath: string,
      settings: JobSettings,
      policy: InputPolicy = {},
      mode?: KeyMode,
    ): Promise<JobRecord> {
      const fingerprint = await inputFingerprint(inputPath);
      const latest = policy.restart ? undefined : store.latestJobFor(inputPath);
      if (latest && !isFinishedPhase(latest.phase)) {
        if (!policy.resume) {
          throw new AppError(
            'bad_request',
            'An unfinished job for this file exists. Run again with --resume to continue it, or --restart to start over.',
          );
        }
        if (latest.fingerprint !== fingerprint) {
          throw new AppError(
            'input_changed',
            'The file changed since its job started; run with --restart to clean it again.',
          );
        }
        return latest;
      }
      const sameList =
        latest?.phase === 'done' &&
        latest.fingerprint === fingerprint &&
        latest.settings.column === settings.column &&
        latest.settings.sheet === settings.sheet &&
        // Rules changed since: the list is read again (what was checked comes back from the cache, unbilled).
        (latest.precheck?.rulesVersion ?? 0) === (options.rules?.version() ?? 0) &&
        (mode === undefined || hasDemoVerdicts(latest) === (mode === 'sandbox'));
      if (latest && sameList) {
        store.updateSettings(latest.id, {
          ...latest.settings,
          ...settings,
          addressesPerBatch: latest.settings.addressesPerBatch,
        });
        return store.getJob(latest.id)!;
      }
      return store.createJob(inputPath, fingerprint, settings);
    },

    /** Reads and pre-checks the list, unless that was done. Nothing is sent. */
    async prepare(job, mode, onProgress, onToSend): Promise<JobRecord> {
      const list = store.list(job.id);
      // A demo verdict is never reused for a live key, nor the reverse: read for the other kind, read again;
      // and a list read before the do-not-mail list changed is read against it as it is now.
      const readForOtherKey = job.keyMode !== mode && (list.counters().get('cached') ?? 0) > 0;
      const suppressionChanged =
        options.suppression !== undefined && job.precheck?.suppressionVersion !== options.suppression.version();
      const rulesChanged = (job.precheck?.rulesVersion ?? 0) !== (options.rules?.version() ?? 0);
      const readAgain = readForOtherKey || suppressionChanged || rulesChanged;
      if (job.phase === 'imported' && readAgain && list.parts().length === 0) {
        store.reimport(job.id, job.settings);
        indexes.delete(job.id);
        job = store.getJob(job.id)!;
      }
      if (job.phase !== 'importing') return job;
      store.setKeyMode(job.id, mode);
      const cache =
        options.cacheDir && job.settings.useCache !== false
          ? cacheAskFor(options.cacheDir, {
              mode,
              now: now(),
              maxAgeDays: job.settings.cacheMaxAgeDays,
              listBytes: fileSize(job.inputPath),
            })
          : undefined;
      const suppression = options.suppression?.open();
      const rules = options.rules?.open();
      try {
        const imported = await importList(store, store.getJob(job.id)!, {
          onProgress: (rows) => onProgress?.({ phase: 'importing', rows }),
          cache,
          suppression,
          rules,
          onRuled: (rows) => rules?.record({ list: displayNameOf(job), at: now(), rows }),
          onToSend,
        });
        indexes.set(job.id, imported.index);
        // What catch-all domains' sends have come to so far moves the scores, kept as it stands now.
        if (options.cacheDir) store.list(job.id).catchAllEvidence.keep(learnedCatchAllDomains(options.cacheDir));
        return imported.job;
      } finally {
        suppression?.close();
        rules?.close();
      }
    },

    estimate: (job, client, signal) => estimateCost(store, job, client, signal),

    /** Sends what was not sent and reads every verdict back; resumes wherever the job stopped. */
    async run(job: JobRecord, client: ServiceClient, options: RunOptions = {}): Promise<JobRecord> {
      if (job.keyMode !== client.mode) store.setKeyMode(job.id, client.mode);
      const checkedBefore = store.list(job.id).checkedCount();
      const reach = reachOf(store.reach, client.serviceName);
      const finished = await runJob(store, store.getJob(job.id)!, client, indexFor(job), reach, options);
      indexes.delete(job.id);
      remember(finished, client, store.list(job.id).checkedCount() > checkedBefore);
      return finished;
    },

    cancel: (job: JobRecord, client: ServiceClient) => cancelJob(store, job, client),

    /** Plans checking again what a canceled or failed job left; answers how many addresses that is. */
    retry: (job: JobRecord) => planRetry(store, job),

    export: (job: JobRecord, outDir: string): Promise<ExportResult> => exportJob(store, job, outDir),

    async cleanFile(
      service: ServiceClient | ServiceOnItsWay,
      request: { inputPath: string; settings: JobSettings; policy?: InputPolicy; outDir: string },
      hooks: CleanHooks = {},
    ): Promise<{ job: JobRecord; exported: ExportResult }> {
      const { mode } = service;
      const start = () => ('start' in service ? service.start() : Promise.resolve(service));
      // Started as soon as the list needs it, while the rest is read. A failed start is told when the
      // client is asked for after the read, not lost meanwhile.
      const startEarly = () => void start().catch(() => {});
      let job = await cleaner.jobForInput(request.inputPath, request.settings, request.policy, mode);
      if (job.phase === 'done') hooks.onFinishedJob?.(job);
      else {
        const unread = job;
        job = await cleaner.prepare(job, mode, hooks.onProgress, startEarly).catch((error: unknown) => {
          // A list that cannot be read leaves no job behind to resume: the same command works once it is fixed.
          if (unread.phase === 'importing' && unread.rowsTotal === 0 && !hooks.signal?.aborted) {
            indexes.delete(unread.id);
            store.deleteJob(unread.id);
          }
          throw error;
        });
        // Every address settled before sending (the pre-check, the do-not-mail list, the verdict cache):
        // nothing is sent, the account is not asked, and a service on its way is never started.
        const client = needsService(store, job) ? await start() : undefined;
        const cost = await cleaner.estimate(job, client ?? { mode }, hooks.signal);
        hooks.onCost?.(cost);
        if (!cost.covered) throw new CostNotCovered(cost);
        const runOptions = { signal: hooks.signal, onProgress: hooks.onProgress, pollIntervalMs: hooks.pollIntervalMs };
        job = client ? await cleaner.run(job, client, runOptions) : endRun(store, job, 0, runOptions);
        indexes.delete(job.id);
        await hooks.afterChecking?.();
      }
      const exported = await cleaner.export(job, request.outDir);
      await cleaner.settled();
      // What changed since the last check is counted as the verdicts go into the cache, beside the export.
      return { job, exported: await refreshSummary(store, job, exported) };
    },

    /** Forgets what is kept in memory for a job (its index), when the job is deleted. */
    forget(jobId: string): void {
      indexes.delete(jobId);
    },

    async settled(): Promise<void> {
      while (remembering.size > 0) await Promise.all(remembering);
    },
  };
  return cleaner;
}
