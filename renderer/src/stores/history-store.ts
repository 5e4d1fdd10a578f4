// History: every list Sift has read, newest first, with what Sift's data folder takes on disk.
import { create } from 'zustand';
import type { JobListItem } from '../../../electron/common/contract.ts';
import { errorMessage, sift } from '../bridge.ts';
import { formatBytes } from '../format.ts';

type HistoryState = {
  jobs: JobListItem[];
  dataBytes?: number;
  loading: boolean;
  /** What the last action did, for the live region ("Deleted …: 1.2 MB freed."). */
  notice?: string;
  error?: string;
};

export const useHistoryStore = create<HistoryState>()(() => ({ jobs: [], loading: false }));

const { getState: get, setState: set } = useHistoryStore;

export const historyActions = {
  async load() {
    set({ loading: true, error: undefined });
    try {
      const [jobs, usage] = await Promise.all([sift.jobs.list(), sift.jobs.dataUsage()]);
      set({ jobs, dataBytes: usage.bytes });
    } catch (error) {
      set({ error: errorMessage(error) });
    } finally {
      set({ loading: false });
    }
  },

  async remove(jobId: string) {
    const job = get().jobs.find((item) => item.jobId === jobId);
    try {
      const { freedBytes } = await sift.jobs.delete({ jobId });
      set({ notice: `Deleted ${job?.fileName ?? 'the list'}: ${formatBytes(freedBytes)} freed.`, error: undefined });
      await historyActions.load();
    } catch (error) {
      set({ error: errorMessage(error), notice: undefined });
    }
  },

  async resume(jobId: string) {
    try {
      await sift.jobs.start({ jobId });
      await historyActions.load();
    } catch (error) {
      set({ error: errorMessage(error) });
    }
  },
};
