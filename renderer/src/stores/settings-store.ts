// Settings and the account badge: what main says about the service lists go to. The API key a person
// types goes to main once, from the form, and is never kept here.
import { create } from 'zustand';
import type {
  AccountView,
  ConnectionTestResult,
  LiveCheckTest,
  SettingsView,
} from '../../../electron/common/contract.ts';
import { errorMessage, sift } from '../bridge.ts';
import { busyWhileIn } from './busy-while.ts';

type SettingsState = {
  settings?: SettingsView;
  account?: AccountView;
  /** The last "Test connection" answer. */
  test?: ConnectionTestResult;
  /** The last port-25 test from this computer (directly and through each proxy), and whether one runs. */
  liveTest?: LiveCheckTest;
  liveTesting: boolean;
  busy: boolean;
  notice?: string;
  error?: string;
};

export const useSettingsStore = create<SettingsState>()(() => ({ busy: false, liveTesting: false }));

const { setState: set } = useSettingsStore;

const busyWhile = busyWhileIn(set, { notice: undefined });

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

  /** Sift's own service: the demo (a sandbox key's scripted verdicts). */
  useDemo: () =>
    busyWhile(async () => {
      set({
        settings: await sift.settings.useOwn({ mode: 'sandbox' }),
        notice: 'Lists now get demo verdicts: scripted, no mail server is asked.',
      });
      await settingsActions.refreshAccount();
    }),

  /** Port 25 from this computer now, directly and through each proxy (one per line); nothing is saved. */
  async testLiveChecks(proxies: string[]) {
    set({ liveTesting: true, liveTest: undefined, error: undefined });
    try {
      set({ liveTest: await sift.settings.testLiveChecks({ proxies }) });
    } catch (error) {
      set({ error: errorMessage(error) });
    } finally {
      set({ liveTesting: false });
    }
  },

  /** Live checks on this computer, through these proxies (none: straight out). */
  checkOnThisComputer: (proxies: string[], sender: { helo: string; mailFrom: string }) =>
    busyWhile(async () => {
      const saved = useSettingsStore.getState().settings?.engine ?? {};
      const helo = sender.helo.trim();
      const mailFrom = sender.mailFrom.trim();
      await sift.settings.setEngine({
        ...saved,
        proxies,
        ...(helo ? { helo } : {}),
        ...(mailFrom ? { mailFrom } : {}),
      });
      set({
        settings: await sift.settings.useOwn({ mode: 'live' }),
        notice: "Lists are now checked on this computer: Sift asks each address's mail server.",
      });
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
