// The screen for Sift's own service: its dashboard as main reports it, and a secret shown once after a
// key or a webhook endpoint is made (gone from here when the person leaves the screen).
import { create } from 'zustand';
import type { EngineSettings, ServiceOverview, SettingsView } from '../../../electron/common/contract.ts';
import { sift } from '../bridge.ts';
import { busyWhileIn } from './busy-while.ts';

type ShownOnce = { what: 'key' | 'webhook secret'; label: string; secret: string };

type Sharing = { enabled: boolean; port: number };

type ServiceState = {
  overview?: ServiceOverview;
  sharing?: Sharing;
  /** Live-check settings as saved, and the engine's defaults for what is left empty. */
  engine?: { saved: EngineSettings; defaults: SettingsView['engineDefaults'] };
  shownOnce?: ShownOnce;
  /** What the last change did, said once. */
  notice?: string;
  busy: boolean;
  error?: string;
};

export const useServiceStore = create<ServiceState>()(() => ({ busy: false }));

const { setState: set } = useServiceStore;

const busyWhile = busyWhileIn(set);

export const serviceActions = {
  load: () =>
    busyWhile(async () => {
      const [overview, settings] = await Promise.all([sift.service.overview(), sift.settings.get()]);
      set({
        overview,
        sharing: settings.sharing,
        engine: { saved: settings.engine, defaults: settings.engineDefaults },
        notice: undefined,
      });
    }),

  setSharing: (sharing: Sharing) =>
    busyWhile(async () => {
      const settings = await sift.settings.setSharing(sharing);
      set({
        sharing: settings.sharing,
        notice: settings.sharing.enabled
          ? `From the next start, Sift's service listens at http://127.0.0.1:${settings.sharing.port}/v1 for other tools on this computer.`
          : "From the next start, Sift's service listens only for Sift itself.",
      });
    }),

  setEngine: (engine: EngineSettings) =>
    busyWhile(async () => {
      const settings = await sift.settings.setEngine(engine);
      set({
        engine: { saved: settings.engine, defaults: settings.engineDefaults },
        notice: "Saved. Sift's service checks live addresses this way from its next conversation with a mail server.",
      });
    }),

  createKey: (mode: 'live' | 'sandbox', label: string) =>
    busyWhile(async () => {
      const { key, overview } = await sift.service.createKey({ mode, label });
      set({ overview, shownOnce: { what: 'key', label, secret: key } });
    }),

  revokeKey: (keyId: string) =>
    busyWhile(async () => set({ overview: await sift.service.revokeKey({ keyId }), shownOnce: undefined })),

  addWebhook: (url: string) =>
    busyWhile(async () => {
      const { secret, overview } = await sift.service.addWebhook({ url });
      set({ overview, shownOnce: { what: 'webhook secret', label: url, secret } });
    }),

  removeWebhook: (endpointId: string) =>
    busyWhile(async () => set({ overview: await sift.service.removeWebhook({ endpointId }) })),

  replayDelivery: (deliveryId: string) =>
    busyWhile(async () => set({ overview: await sift.service.replayDelivery({ deliveryId }) })),

  setThreshold: (credits: number | null) =>
    busyWhile(async () => set({ overview: await sift.service.setThreshold({ credits }) })),

  /** Leaving the screen forgets a secret that was shown once. */
  forgetSecret: () => set({ shownOnce: undefined }),
};
