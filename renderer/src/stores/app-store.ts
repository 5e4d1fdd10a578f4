import { create } from 'zustand';
import type { AppInfo } from '../../../electron/common/contract.ts';
import { sift } from '../bridge.ts';

type AppState = {
  info?: AppInfo;
  /** The latest activity main reported, shown in the status bar. */
  activity?: string;
  load(): Promise<void>;
  subscribe(): () => void;
};

export const useAppStore = create<AppState>()((set) => ({
  async load() {
    set({ info: await sift.app.getInfo() });
  },
  subscribe: () =>
    sift.lists.onDidPreview(({ fileName, rowsShown }) =>
      set({ activity: `Opened ${fileName} (${rowsShown} ${rowsShown === 1 ? 'row' : 'rows'} shown)` }),
    ),
}));
