import { create } from 'zustand';
import type { AppInfo } from '../../../electron/common/contract.ts';
import { sift } from '../bridge.ts';

type AppState = { info?: AppInfo };

export const useAppStore = create<AppState>()(() => ({}));

export const appActions = {
  async load() {
    useAppStore.setState({ info: await sift.app.getInfo() });
  },
};
