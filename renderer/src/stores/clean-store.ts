// The list being cleaned: state in a zustand store that components read by selector, and actions as
// plain functions (zustand's "no store actions" pattern), so calling one needs no hook.
import { create } from 'zustand';
import type {
  EventPayload,
  ExportChoices,
  ExportFile,
  FileRef,
  JobListItem,
  JobOverview,
  keepableResults,
  ListPreview,
  ListSummary,
} from '../../../electron/common/contract.ts';
import { isFinishedPhase } from '../../../electron/common/job-phases.ts';
import { errorMessage, sift } from '../bridge.ts';
import { busyWhileIn } from './busy-while.ts';

export type KeepableResult = (typeof keepableResults)[number];
/** `pick`: the file reads but its email column must be chosen by hand. */
export type Stage = 'drop' | 'reading' | 'pick' | 'review' | 'running' | 'finished';

type CleanState = {
  stage: Stage;
  fileName?: string;
  /** The opened file as main finds it (staged once; a column change reads it again from there). */
  source?: FileRef;
  job?: JobOverview;
  preview?: ListPreview;
  error?: string;
  choices: ExportChoices;
  /** Cancel was asked for; the job reads what was checked, then ends. */
  canceling: boolean;
  exported?: { files: ExportFile[]; summary: ListSummary };
  busy: boolean;
  recent: JobListItem[];
  /** The running job's progress as it came, over the last half minute: the pace this screen shows. */
  progressSamples: ProgressSample[];
};

type ProgressSample = { jobId: string; at: number; checked: number };
/** How far back the pace is measured. */
const paceWindowMs = 30_000;

const stageOf = (job: JobOverview): Stage =>
  isFinishedPhase(job.phase) ? 'finished' : job.phase === 'imported' ? 'review' : 'running';

/** Sift's defaults (core/jobs/job-settings.ts): valid addresses, disposable inboxes left out. */
const defaultChoices: ExportChoices = {
  keep: ['valid'],
  keepAtScore: {},
  remove: { role: false, disposable: true, typos: false },
  perStatusFiles: false,
  format: 'csv',
};

export const useCleanStore = create<CleanState>()(() => ({
  stage: 'drop',
  choices: defaultChoices,
  canceling: false,
  busy: false,
  recent: [],
  progressSamples: [],
}));

const { getState: get, setState: set } = useCleanStore;

const busyWhile = busyWhileIn(set);

export const cleanActions = {
  async loadRecent() {
    try {
      set({ recent: await sift.jobs.list() });
    } catch {
      // The list is a convenience; the drop zone works without it.
    }
  },

  async openJob(jobId: string) {
    set({ error: undefined, exported: undefined, preview: undefined, source: undefined, canceling: false });
    try {
      const job = await sift.jobs.get({ jobId });
      set({ job, fileName: job.fileName, stage: stageOf(job) });
      // A list not yet cleaned shows its rows again, read from the job's own copy of the input.
      if (job.phase === 'imported') set({ preview: await sift.jobs.preview({ jobId, maxRows: 8 }) });
    } catch (error) {
      set({ error: errorMessage(error) });
    }
  },

  /** A dropped or chosen file: handed to main once, then read from there. */
  async openFile(file: File) {
    set({ stage: 'reading', fileName: file.name, error: undefined, job: undefined, preview: undefined });
    try {
      await cleanActions.openSource(await sift.files.stage(file), file.name);
    } catch (error) {
      set({ stage: 'drop', error: errorMessage(error) });
    }
  },

  /** A file main opened itself (File ▸ Open… in the desktop app). */
  openPath: (path: string) => cleanActions.openSource({ kind: 'path', path }, path.split(/[\\/]/).pop() ?? path),

  async openSource(source: FileRef, fileName: string, column?: string, sheet?: string) {
    set({
      stage: 'reading',
      fileName,
      source,
      error: undefined,
      job: undefined,
      preview: undefined,
      exported: undefined,
      canceling: false,
    });
    const [job, preview] = await Promise.allSettled([
      sift.jobs.create({ file: source, column, ...(sheet ? { sheet } : {}) }),
      sift.lists.preview({ file: source, maxRows: 8, ...(sheet ? { sheet } : {}) }),
    ]);
    if (job.status === 'fulfilled') {
      // A workbook dropped without a sheet is read from its first sheet with addresses: shown as read.
      const guessed = !sheet && preview.status === 'fulfilled' && preview.value.sheets !== undefined;
      const shown = guessed
        ? await sift.jobs.preview({ jobId: job.value.jobId, maxRows: 8 }).catch(() => undefined)
        : preview.status === 'fulfilled'
          ? preview.value
          : undefined;
      set({ stage: 'review', job: job.value, preview: shown });
    } else if (preview.status === 'fulfilled' && preview.value.headers.length > 0) {
      // The file reads, but no email column was found: the person picks it on the preview.
      set({ stage: 'pick', preview: preview.value, error: errorMessage(job.reason) });
    } else set({ stage: 'drop', error: errorMessage(job.reason) });
  },

  /** Another email column: a job not yet cleaned is read again in main; a file still being picked is read anew. */
  changeColumn: (column: string) =>
    busyWhile(async () => {
      const { job, source, fileName } = get();
      if (job?.phase === 'imported') set({ job: await sift.jobs.remap({ jobId: job.jobId, column }) });
      else if (source) await cleanActions.openSource(source, fileName ?? '', column, get().preview?.sheet);
    }),

  /** Another sheet of a workbook: a job not yet cleaned is read again from it; a file still being picked anew. */
  chooseSheet: (sheet: string) =>
    busyWhile(async () => {
      const { job, source, fileName } = get();
      if (job?.phase === 'imported') {
        const reread = await sift.jobs.chooseSheet({ jobId: job.jobId, sheet });
        set({ job: reread, preview: await sift.jobs.preview({ jobId: reread.jobId, maxRows: 8 }) });
      } else if (source) await cleanActions.openSource(source, fileName ?? '', undefined, sheet);
    }),

  /** Reuse the verdicts earlier lists got, or check every address: a job not yet cleaned is read again. */
  useCache: (useCache: boolean) =>
    busyWhile(async () => {
      const { job } = get();
      if (job?.phase === 'imported') set({ job: await sift.jobs.useCache({ jobId: job.jobId, useCache }) });
    }),

  /** Starts (or resumes) the job; `limit` sends only the first this many addresses. */
  start: (limit?: number) =>
    busyWhile(async () => {
      const { job } = get();
      if (!job) return;
      const started = await sift.jobs
        .start({ jobId: job.jobId, ...(limit === undefined ? {} : { limit }) })
        .catch(async (error: unknown) => {
          // Not sent (read again, say): the screen shows the job as it is now, with why.
          const now = await sift.jobs.get({ jobId: job.jobId }).catch(() => undefined);
          if (now) set({ job: now, stage: stageOf(now) });
          throw error;
        });
      // A short job may have ended (its last progress event came first): never step back from the results.
      const current = get().job;
      if (current?.jobId === started.jobId && isFinishedPhase(current.phase)) return;
      // Accepted: the job is on its way even while main still says it has not sent anything.
      set({ job: started, stage: isFinishedPhase(started.phase) ? 'finished' : 'running' });
    }),

  /** Desktop app: a copy of an exported file where the person chooses, or the file shown in its folder. */
  async saveCopy(downloadPath: string) {
    try {
      await sift.exports.saveCopy({ downloadPath });
    } catch (error) {
      set({ error: errorMessage(error) });
    }
  },

  async showInFolder(downloadPath: string) {
    try {
      await sift.exports.showInFolder({ downloadPath });
    } catch (error) {
      set({ error: errorMessage(error) });
    }
  },

  /** Checks again what a canceled or stopped list left; what was checked is kept. */
  retry: () =>
    busyWhile(async () => {
      const { job } = get();
      if (!job) return;
      const retried = await sift.jobs.retry({ jobId: job.jobId });
      set({ job: retried, stage: 'running', exported: undefined });
    }),

  async cancel() {
    const { job } = get();
    if (!job) return;
    set({ canceling: true, error: undefined });
    try {
      const canceled = await sift.jobs.cancel({ jobId: job.jobId });
      const finished = isFinishedPhase(canceled.phase);
      set({ job: canceled, stage: finished ? 'finished' : get().stage, canceling: !finished });
    } catch (error) {
      set({ canceling: false, error: errorMessage(error) });
    }
  },

  /** A changed choice makes the files on screen out of date. */
  setChoices(choices: ExportChoices) {
    set({ choices, exported: undefined });
  },

  exportFiles: () =>
    busyWhile(async () => {
      const { job, choices } = get();
      if (!job || choices.keep.length === 0) return;
      set({ exported: await sift.jobs.export({ jobId: job.jobId, ...choices }) });
    }),

  /** A job's progress event: the job on screen follows it; a finished one is read again whole. */
  async progress(payload: EventPayload<'jobs:didProgress'>) {
    const { job } = get();
    if (!job || job.jobId !== payload.jobId) return;
    try {
      if (isFinishedPhase(payload.phase)) {
        const latest = await sift.jobs.get({ jobId: payload.jobId });
        set({ job: latest, stage: 'finished', canceling: false });
        return;
      }
      const { checked, total, parts, etaSeconds, politePace } = payload;
      const at = Date.now();
      const progressSamples = [
        ...get().progressSamples.filter((sample) => sample.jobId === job.jobId && at - sample.at <= paceWindowMs),
        { jobId: job.jobId, at, checked },
      ];
      const progress = {
        checked,
        total,
        ...(parts ? { parts } : {}),
        ...(etaSeconds === undefined ? {} : { etaSeconds }),
        ...(politePace === undefined ? {} : { politePace }),
      };
      set({ job: { ...job, phase: payload.phase, progress, error: payload.error }, progressSamples });
    } catch (error) {
      set({ error: errorMessage(error) });
    }
  },

  reset() {
    set({
      stage: 'drop',
      fileName: undefined,
      source: undefined,
      job: undefined,
      preview: undefined,
      error: undefined,
      exported: undefined,
      canceling: false,
    });
    void cleanActions.loadRecent();
  },
};
