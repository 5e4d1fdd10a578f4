// The app's jobs as main offers them to the handlers (job-manager.ts implements it).
import type { ExportFile, JobListItem, JobOverview, ListSummary } from '../../common/contract.ts';
import type { ExportChoicesOf } from './job-settings.ts';
import type { JobReads } from './views/index.ts';

export type JobManager = JobReads & {
  /** Imports and pre-checks a list (nothing is sent); an uploaded file is copied so the job keeps it. */
  create(
    source: { path: string; fileName: string; isUpload: boolean },
    column?: string,
    sheet?: string,
  ): Promise<JobOverview>;
  get(jobId: string): Promise<JobOverview>;
  /** Every job, newest first, for History and the recent lists. */
  list(): JobListItem[];
  /** Reads the list again with another column as the address; nothing has been sent for it. */
  remap(jobId: string, column: string): Promise<JobOverview>;
  /** Reads a workbook not sent yet again from another sheet (its email column found anew). */
  chooseSheet(jobId: string, sheet: string): Promise<JobOverview>;
  /** Reads a list not sent yet again, reusing verdicts earlier lists got (the verdict cache) or not. */
  useCache(jobId: string, useCache: boolean): Promise<JobOverview>;
  /** Removes a job, its list and the files the app made for it; answers the bytes freed. */
  delete(jobId: string): Promise<{ freedBytes: number }>;
  /** What Sift keeps in its data folder, in bytes. */
  dataUsage(): Promise<{ bytes: number }>;
  /** Sends the list (the first `limit` addresses, when given) and reads its verdicts back, in the background. */
  start(jobId: string, limit?: number): Promise<JobOverview>;
  /** Checks again what a canceled or stopped job left unchecked. */
  retry(jobId: string): Promise<JobOverview>;
  /** Stops the job: parts not sent are never sent, running batches are canceled, what was checked is kept. */
  cancel(jobId: string): Promise<JobOverview>;
  /** Writes the job's outputs as chosen, into its export folder. */
  /** Writes the finished list's report into its export folder; answers the file, for download. */
  report(jobId: string): Promise<ExportFile>;
  export(jobId: string, choices: ExportChoicesOf): Promise<{ files: ExportFile[]; summary: ListSummary }>;
  /**
   * The finished list's files written as CSV into `outDir`, the job's own choices unchanged; answers its
   * annotated file and the scores its kept verdicts must reach (a sync plans its write-back from them).
   */
  annotatedCsv(jobId: string, outDir: string): Promise<{ path: string; keepAtScore: Record<string, number> }>;
  /** After a restart: jobs that were sending or reading carry on by themselves. */
  resumeUnfinished(): void;
  /** Whether a list is being checked now (closing the app's window then keeps Sift going). */
  busy(): boolean;
  /** Lets running jobs pause where they are and closes the store. */
  close(): Promise<void>;
};
