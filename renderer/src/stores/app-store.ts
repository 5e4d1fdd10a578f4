import { create } from 'zustand';
import type { AppInfo } from '../../../electron/common/contract.ts';
import { sift } from '../bridge.ts';

type AppState = { info?: AppInfo; load(): Promise<void> };

export const useAppStore = create<AppState>()((set) => ({
  async load() {
    set({ info: await sift.app.getInfo() });
  },
}));
