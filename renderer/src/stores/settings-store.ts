// Settings and the account badge: what main says about the service lists go to. The API key a person
// types goes to main once, from the form, and is never kept here.
import { create } from 'zustand';
import type { AccountView, ConnectionTestResult, SettingsView } from '../../../electron/common/contract.ts';
import { errorMessage, sift } from '../bridge.ts';

type SettingsState = {
  settings?: SettingsView;
  account?: AccountView;
  /** The last "Test connection" answer. */
  test?: ConnectionTestResult;
  busy: boolean;
  notice?: string;
  error?: string;
};

export const useSettingsStore = create<SettingsState>()(() => ({ busy: false }));

const { setState: set } = useSettingsStore;

async function busyWhile(work: () => Promise<void>): Promise<void> {
  set({ busy: true, error: undefined, notice: undefined });
  try {
    await work();
  } catch (error) {
    set({ error: errorMessage(error) });
  } finally {
    set({ busy: false });
  }
}

export type HostedForm = { baseUrl: string; label: string; apiKey: string };

const keyOf = (form: HostedForm) => (form.apiKey.trim() === '' ? {} : { apiKey: form.apiKey });

export const settingsActions = {
  async load() {
    try {
      set({ settings: await sift.settings.get() });
    } catch (error) {
      set({ error: errorMessage(error) });
    }
  },

  /** The badge's account; refreshed on start, after Settings change and after each job ends. */
  async refreshAccount() {
    try {
      set({ account: await sift.account.get() });
    } catch {
      // The badge is a convenience: without it every screen still works.
    }
  },

  testConnection: (form: HostedForm) =>
    busyWhile(async () => {
      set({ test: undefined });
      set({ test: await sift.settings.testConnection({ baseUrl: form.baseUrl, ...keyOf(form) }) });
    }),

  saveHosted: (form: HostedForm) =>
    busyWhile(async () => {
      const settings = await sift.settings.saveHosted({ baseUrl: form.baseUrl, label: form.label, ...keyOf(form) });
      set({ settings, notice: `Lists now go to ${settings.hosted?.label ?? 'the hosted service'}.` });
      await settingsActions.refreshAccount();
    }),

  useOwn: () =>
    busyWhile(async () => {
      set({ settings: await sift.settings.useOwn({ mode: 'sandbox' }), notice: "Lists now go to Sift's own service." });
      await settingsActions.refreshAccount();
    }),

  /** The choice shows at once; main saves it and tells every window (this one too) to follow. */
  async setAppearance(appearance: SettingsView['appearance']) {
    const before = useSettingsStore.getState().settings;
    if (before) set({ settings: { ...before, appearance } });
    try {
      set({ settings: await sift.settings.setAppearance({ appearance }) });
    } catch (error) {
      set({ settings: before, error: errorMessage(error) });
    }
  },

  forgetHosted: () =>
    busyWhile(async () => {
      set({
        settings: await sift.settings.forgetHosted(),
        test: undefined,
        notice: "The hosted service and its key are removed from this computer. Lists go to Sift's own service.",
      });
      await settingsActions.refreshAccount();
    }),
};
