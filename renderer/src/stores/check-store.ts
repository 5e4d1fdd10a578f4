// Checking one address now: the answer on screen and the recent checks (kept by main).
import { create } from 'zustand';
import type { SingleCheck } from '../../../electron/common/contract.ts';
import { sift } from '../bridge.ts';
import { busyWhileIn } from './busy-while.ts';

type CheckState = { latest?: SingleCheck; recent: SingleCheck[]; busy: boolean; error?: string };

export const useCheckStore = create<CheckState>()(() => ({ recent: [], busy: false }));

const { setState: set } = useCheckStore;
const busyWhile = busyWhileIn(set, { latest: undefined });

export const checkActions = {
  async loadRecent() {
    try {
      set({ recent: await sift.checks.recent() });
    } catch {
      // The list is a convenience; checking works without it.
    }
  },

  verify: (email: string) =>
    busyWhile(async () => {
      set({ latest: await sift.checks.verify({ email }) });
      await checkActions.loadRecent();
    }),
};
