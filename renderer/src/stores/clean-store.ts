import { create } from 'zustand';
import type {
  EventPayload,
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
type Stage = 'drop' | 'reading' | 'review' | 'running' | 'finished';

type CleanState = {
  stage: Stage;
  fileName?: string;
  file?: File;
  job?: JobOverview;
  preview?: ListPreview;
  error?: string;
  keep: KeepableResult[];
  exported?: { files: ExportFile[]; summary: ListSummary };
  busy: boolean;
  recent: JobListItem[];
  loadRecent(): Promise<void>;
  openJob(jobId: string): Promise<void>;
  openFile(file: File, column?: string): Promise<void>;
  changeColumn(column: string): Promise<void>;
  start(): Promise<void>;
  cancel(): Promise<void>;
  toggleKeep(result: KeepableResult): void;
  exportFiles(): Promise<void>;
  progress(payload: EventPayload<'jobs:didProgress'>): Promise<void>;
  reset(): void;
};

const finished = (job: JobOverview) => isFinishedPhase(job.phase);
const stageOf = (job: JobOverview): Stage =>
  finished(job) ? 'finished' : job.phase === 'imported' ? 'review' : 'running';

export const useCleanStore = create<CleanState>()((set, get) => ({
  stage: 'drop',
  keep: ['valid'],
  busy: false,
  recent: [],
  async loadRecent() {
    try {
      set({ recent: await sift.jobs.list() });
    } catch {
      // The list is a convenience; the drop zone works without it.
    }
  },
  async openJob(jobId) {
    set({ error: undefined, exported: undefined, preview: undefined, file: undefined });
    try {
      const job = await sift.jobs.get({ jobId });
      set({ job, fileName: job.fileName, stage: stageOf(job) });
    } catch (error) {
      set({ error: errorMessage(error) });
    }
  },
  async openFile(file, column) {
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
  async changeColumn(column) {
    const { file } = get();
    if (file) await get().openFile(file, column);
  },
  async start() {
    const { job } = get();
    if (!job) return;
    set({ busy: true, error: undefined });
    try {
      const started = await sift.jobs.start({ jobId: job.jobId });
      set({ job: started, stage: finished(started) ? 'finished' : 'running' });
    } catch (error) {
      set({ error: errorMessage(error) });
    } finally {
      set({ busy: false });
    }
  },
  async cancel() {
    const { job } = get();
    if (!job) return;
    set({ busy: true });
    try {
      const canceled = await sift.jobs.cancel({ jobId: job.jobId });
      set({ job: canceled, stage: finished(canceled) ? 'finished' : get().stage });
    } catch (error) {
      set({ error: errorMessage(error) });
    } finally {
      set({ busy: false });
    }
  },
  toggleKeep(result) {
    const keep = get().keep.includes(result) ? get().keep.filter((value) => value !== result) : [...get().keep, result];
    set({ keep, exported: undefined });
  },
  async exportFiles() {
    const { job, keep } = get();
    if (!job || keep.length === 0) return;
    set({ busy: true, error: undefined });
    try {
      set({ exported: await sift.jobs.export({ jobId: job.jobId, keep }) });
    } catch (error) {
      set({ error: errorMessage(error) });
    } finally {
      set({ busy: false });
    }
  },
  async progress(payload) {
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
    void get().loadRecent();
  },
}));
