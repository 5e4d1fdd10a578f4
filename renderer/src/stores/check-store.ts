// Checking one address now: the answer on screen and the recent checks (kept by main).
import { create } from 'zustand';
import type { SingleCheck } from '../../../electron/common/contract.ts';
import { errorMessage, sift } from '../bridge.ts';

type CheckState = { latest?: SingleCheck; recent: SingleCheck[]; busy: boolean; error?: string };

export const useCheckStore = create<CheckState>()(() => ({ recent: [], busy: false }));

const { setState: set } = useCheckStore;

export const checkActions = {
  async loadRecent() {
    try {
      set({ recent: await sift.checks.recent() });
    } catch {
      // The list is a convenience; checking works without it.
    }
  },

  async verify(email: string) {
    set({ busy: true, error: undefined, latest: undefined });
    try {
      const latest = await sift.checks.verify({ email });
      set({ latest });
      await checkActions.loadRecent();
    } catch (error) {
      set({ error: errorMessage(error) });
    } finally {
      set({ busy: false });
    }
  },
};
