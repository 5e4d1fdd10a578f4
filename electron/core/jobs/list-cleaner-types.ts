// What the one sequence that cleans a list (list-cleaner.ts) offers and takes: its steps, the hooks a whole
// clean tells, and its options.
import type { ServiceClient } from '../client/service-client.ts';
import type { RulesSource } from '../rules/index.ts';
import type { SuppressionSource } from '../suppression/index.ts';
import type { KeyMode } from '../wire/spec.ts';
import type { ExportResult } from './export/index.ts';
import type { JobSettings } from './job-settings.ts';
import type { Cost, estimateCost, JobProgress, RunOptions } from './run/index.ts';
import type { JobRecord } from './store/index.ts';

export type InputPolicy = { resume?: boolean; restart?: boolean };

export type CleanHooks = {
  signal?: AbortSignal;
  onProgress?: (progress: JobProgress) => void;
  /** Told the cost before anything is sent; a cost the account cannot cover stops the run. */
  onCost?: (cost: Cost) => void;
  /** Told when the input's finished job is exported again and nothing is sent. */
  onFinishedJob?: (job: JobRecord) => void;
  pollIntervalMs?: number;
  /** Told once every verdict is read: the CLI stops its own service then, so the export gets its memory. */
  afterChecking?: () => Promise<void>;
};

/** The one sequence for a list, step by step (the app's job manager) or whole (`sift clean`). */
export type Cleaner = {
  /** The job for an input file: its unfinished one (with `resume`), its finished one when unchanged, else a new one. */
  jobForInput(inputPath: string, settings: JobSettings, policy?: InputPolicy, mode?: KeyMode): Promise<JobRecord>;
  /**
   * Reads the job's list, if still to do, reusing what the verdict cache knows for a key of `mode`; a list
   * read for the other kind of key, with reused verdicts, is read again. `onToSend`: it holds one to send.
   */
  prepare(
    job: JobRecord,
    mode: KeyMode,
    onProgress?: (progress: JobProgress) => void,
    onToSend?: () => void,
  ): Promise<JobRecord>;
  estimate(job: JobRecord, client: Parameters<typeof estimateCost>[2], signal?: AbortSignal): Promise<Cost>;
  /** Sends what was not sent and reads every verdict back; resumes wherever the job stopped. */
  run(job: JobRecord, client: ServiceClient, options?: RunOptions): Promise<JobRecord>;
  cancel(job: JobRecord, client: ServiceClient): Promise<void>;
  /** Plans checking again what a canceled or failed job left; answers how many addresses that is. */
  retry(job: JobRecord): number;
  export(job: JobRecord, outDir: string): Promise<ExportResult>;
  /** The whole sequence for one file, to `outDir`; a service on its way starts only once the list needs it. */
  cleanFile(
    service: ServiceClient | ServiceOnItsWay,
    request: { inputPath: string; settings: JobSettings; policy?: InputPolicy; outDir: string },
    hooks?: CleanHooks,
  ): Promise<{ job: JobRecord; exported: ExportResult }>;
  /** Forgets what is kept in memory for a job (its index), when the job is deleted. */
  forget(jobId: string): void;
  /** Waits for the verdicts of finished runs to be kept in the verdict cache. */
  settled(): Promise<void>;
};

/** A service whose kind of key is known, started when first needed (`start` answers the same client each time). */
export type ServiceOnItsWay = { mode: KeyMode; start(): Promise<ServiceClient> };

export type CleanerOptions = {
  /** The data folder whose verdict cache lists share (none: no cache, as in tests of other things). */
  cacheDir?: string;
  /** The clock a kept verdict's age is read against. */
  now?: () => number;
  /** Told what went wrong keeping verdicts in the cache: the list itself is fine. */
  warn?: (message: string) => void;
  /** The do-not-mail list lists are read against (none: nothing is suppressed). */
  suppression?: SuppressionSource;
  /** A person's rules per domain (none: no rules); the last list's counts per rule are kept with them. */
  rules?: RulesSource;
};
