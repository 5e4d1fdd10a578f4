// A job as the catalog keeps it, and what the catalog offers (job-store.ts implements it): declared once,
// for everything that reads or moves a job on.
import { basename } from 'node:path';
import type { PrecheckCounts } from '../../../common/contract.ts';
import { AppError } from '../../../common/app-error.ts';
import { isFinishedPhase, type JobPhase } from '../../../common/job-phases.ts';
import type { ReachMemory } from '../../client/reach-store.ts';
import type { ServiceRef } from '../../connections/service-ref.ts';
import type { KeyMode } from '../../wire/spec.ts';
import type { JobSettings } from '../job-settings.ts';
import type { ListStore } from './list-types.ts';

export type ListLayoutRecord = { columnIndex: number; hasHeader: boolean; delimiter: string; headers: string[] };

export type JobRecord = ListLayoutRecord & {
  id: string;
  inputPath: string;
  /** Size, time and first bytes of the input when the job was made: a cheap check that it is the same file. */
  fingerprint: string;
  /** SHA-256 of the whole input as imported; export refuses an input that no longer matches. */
  contentHash: string | null;
  settings: JobSettings;
  phase: JobPhase;
  rowsTotal: number;
  precheck: PrecheckCounts | null;
  /** Addresses with a verdict so far, as last recorded (the list store has the exact figure). */
  checked: number;
  error: string | null;
  /** The service the job's batches are sent to (jobs of Sift 0.1 went to Sift's own sandbox). */
  service: ServiceRef;
  /** The kind of key its verdicts came with, once it was sent: a sandbox key's verdicts are demo verdicts. */
  keyMode: KeyMode | null;
  createdAt: number;
  updatedAt: number;
};

/**
 * Whether the job's verdicts are scripted demo verdicts (a sandbox key's), not a mail server's answers.
 * A job sent before Sift recorded the key's kind is judged by where it went.
 */
export function hasDemoVerdicts(job: Pick<JobRecord, 'keyMode' | 'service'>): boolean {
  if (job.keyMode !== null) return job.keyMode === 'sandbox';
  return job.service.kind === 'embedded' && job.service.mode === 'sandbox';
}

/** The name the person knows the job's file by. */
export function displayNameOf(job: Pick<JobRecord, 'inputPath' | 'settings'>): string {
  return job.settings.displayName ?? basename(job.inputPath);
}

/** The catalog of jobs and their lists. */
export type JobStore = {
  /** Where a job's list file is. */
  listPath(jobId: string): string;
  /** Where a workbook's chosen sheet is copied as CSV when its list is read. */
  sheetCopyPath(jobId: string): string;
  /** The CSV the job's rows are read from: its input, or for a workbook, its sheet's copy. */
  rowsPath(job: Pick<JobRecord, 'id' | 'inputPath' | 'settings'>): string;
  /** What was learned of each service (its shortcuts, its batch size), shared with every job on this folder. */
  reach: ReachMemory;
  /** The job's list, opened once and kept open while the store is. */
  list(jobId: string): ListStore;
  close(): void;
  createJob(inputPath: string, fingerprint: string, settings: JobSettings): JobRecord;
  getJob(id: string): JobRecord | undefined;
  /** The newest jobs that got past reading their file, newest first. */
  recentJobs(limit: number): JobRecord[];
  /** Jobs that were sending or reading when Sift stopped. */
  jobsInFlight(): JobRecord[];
  /** The newest job made from this input, if any. */
  latestJobFor(inputPath: string): JobRecord | undefined;
  /** Other jobs read from the same contents with the same column and not sent yet. */
  unsentTwinsOf(job: JobRecord): JobRecord[];
  /** Reads the job's list again from its input (another column, say); nothing has been sent for it. */
  reimport(id: string, settings: JobSettings): void;
  updateInput(id: string, inputPath: string, fingerprint: string): void;
  updateSettings(id: string, settings: JobSettings): void;
  /** The service the job is (or will be) sent to. */
  setService(id: string, service: ServiceRef): void;
  /** The kind of key the job is sent with: its verdicts are demo verdicts when it is a sandbox key. */
  setKeyMode(id: string, mode: KeyMode): void;
  /** Moves the job on; `error` is what a person is told about how it ended or why it is paused. */
  setPhase(id: string, phase: JobPhase, error?: string | null): void;
  /** Trouble that leaves the job where it was, resumable (the service could not be reached, say). */
  setError(id: string, error: string | null): void;
  setLayout(id: string, layout: ListLayoutRecord): void;
  /** How far an import has got, for whoever watches it. */
  setImportedRows(id: string, rows: number): void;
  finishImport(id: string, result: { rowsTotal: number; precheck: PrecheckCounts; contentHash: string }): void;
  /** Mirrors the list's verdict count, so lists of jobs need not open every job's file. */
  setChecked(id: string, checked: number): void;
  /** Removes the job, its list file and everything in it. */
  deleteJob(id: string): void;
};

/** The job, when it has finished; else the error a person sees for asking too early. */
export function finishedOrThrow<Job extends Pick<JobRecord, 'phase'>>(job: Job): Job {
  if (!isFinishedPhase(job.phase)) throw new AppError('bad_request', 'The list is not finished yet.');
  return job;
}
