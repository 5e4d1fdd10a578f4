import { create } from 'zustand';
import type { AppInfo, UpdateStatus } from '../../../electron/common/contract.ts';
import { sift } from '../bridge.ts';

type AppState = { info?: AppInfo; update?: UpdateStatus };

export const useAppStore = create<AppState>()(() => ({}));

export const appActions = {
  async load() {
    useAppStore.setState({ info: await sift.app.getInfo() });
    // In the background: a page that cannot reach the feed is none the worse for it.
    void sift.app.updateStatus().then(
      (update) => useAppStore.setState({ update }),
      () => {},
    );
  },
};
