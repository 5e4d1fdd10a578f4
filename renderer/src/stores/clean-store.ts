// The list being cleaned: state in a zustand store that components read by selector, and actions as
// plain functions (zustand's "no store actions" pattern), so calling one needs no hook.
import { create } from 'zustand';
import type {
  EventPayload,
  ExportChoices,
  ExportFile,
  JobListItem,
  JobOverview,
  keepableResults,
  ListPreview,
  ListSummary,
} from '../../../electron/common/contract.ts';
import { isFinishedPhase } from '../../../electron/common/job-phases.ts';
import { errorMessage, sift } from '../bridge.ts';

export type KeepableResult = (typeof keepableResults)[number];
export type Stage = 'drop' | 'reading' | 'review' | 'running' | 'finished';

type CleanState = {
  stage: Stage;
  fileName?: string;
  file?: File;
  job?: JobOverview;
  preview?: ListPreview;
  error?: string;
  choices: ExportChoices;
  exported?: { files: ExportFile[]; summary: ListSummary };
  busy: boolean;
  recent: JobListItem[];
};

const stageOf = (job: JobOverview): Stage =>
  isFinishedPhase(job.phase) ? 'finished' : job.phase === 'imported' ? 'review' : 'running';

/** Sift's defaults (core/jobs/job-settings.ts): valid addresses, disposable inboxes left out. */
const defaultChoices: ExportChoices = {
  keep: ['valid'],
  remove: { role: false, disposable: true, typos: false },
  perStatusFiles: false,
};

export const useCleanStore = create<CleanState>()(() => ({
  stage: 'drop',
  choices: defaultChoices,
  busy: false,
  recent: [],
}));

const { getState: get, setState: set } = useCleanStore;

/** Runs a call that changes the job with the busy flag up, showing its failure. */
async function busyWhile(work: () => Promise<void>): Promise<void> {
  set({ busy: true, error: undefined });
  try {
    await work();
  } catch (error) {
    set({ error: errorMessage(error) });
  } finally {
    set({ busy: false });
  }
}

export const cleanActions = {
  async loadRecent() {
    try {
      set({ recent: await sift.jobs.list() });
    } catch {
      // The list is a convenience; the drop zone works without it.
    }
  },

  async openJob(jobId: string) {
    set({ error: undefined, exported: undefined, preview: undefined, file: undefined });
    try {
      const job = await sift.jobs.get({ jobId });
      set({ job, fileName: job.fileName, stage: stageOf(job) });
    } catch (error) {
      set({ error: errorMessage(error) });
    }
  },

  async openFile(file: File, column?: string) {
    set({
      stage: 'reading',
      fileName: file.name,
      file,
      error: undefined,
      job: undefined,
      preview: undefined,
      exported: undefined,
    });
    try {
      const ref = await sift.files.stage(file);
      const [job, preview] = await Promise.all([
        sift.jobs.create({ file: ref, column }),
        sift.lists.preview({ file: ref, maxRows: 8 }),
      ]);
      set({ stage: 'review', job, preview });
    } catch (error) {
      set({ stage: 'drop', error: errorMessage(error) });
    }
  },

  async changeColumn(column: string) {
    const { file } = get();
    if (file) await cleanActions.openFile(file, column);
  },

  start: () =>
    busyWhile(async () => {
      const { job } = get();
      if (!job) return;
      const started = await sift.jobs.start({ jobId: job.jobId });
      set({ job: started, stage: stageOf(started) });
    }),

  cancel: () =>
    busyWhile(async () => {
      const { job } = get();
      if (!job) return;
      const canceled = await sift.jobs.cancel({ jobId: job.jobId });
      set({ job: canceled, stage: isFinishedPhase(canceled.phase) ? 'finished' : get().stage });
    }),

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
        set({ job: latest, stage: 'finished' });
        return;
      }
      const progress = { checked: payload.checked, total: payload.total };
      set({ job: { ...job, phase: payload.phase, progress, error: payload.error } });
    } catch (error) {
      set({ error: errorMessage(error) });
    }
  },

  reset() {
    set({
      stage: 'drop',
      fileName: undefined,
      file: undefined,
      job: undefined,
      preview: undefined,
      error: undefined,
      exported: undefined,
    });
    void cleanActions.loadRecent();
  },
};
