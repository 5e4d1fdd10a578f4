// The services the app reaches and how a person chose them (Settings): Sift's own service, started
// in-process on first use with keys made for this run, or a hosted service whose key main keeps in its
// vault. Keys go from the renderer to main once and never come back: every answer holds only the
// masked form, the mode and the label.
import { randomBytes } from 'node:crypto';
import { AppError } from '../../common/app-error.ts';
import { ServiceClientError } from '../client/client-errors.ts';
import { sharedBudgetFor } from '../client/rate-budget.ts';
import { openReachMemory } from '../client/reach-store.ts';
import { createServiceClient, type ServiceClient } from '../client/service-client.ts';
import { startEmbeddedService, type EmbeddedService } from '../service/embedded-service.ts';
import { ownServiceName } from '../service/embedded-service-thread.ts';
import type { ServiceOverrides } from '../service/service-config.ts';
import { smtpSettings } from '../service/engines/live/smtp-settings.ts';
import type {
  AccountView,
  Appearance,
  EngineSettings,
  LiveCheckTest,
  HeloCheck,
  SettingsView,
} from '../../common/settings-schemas.ts';
import { smtpSettingsOf } from './engine-settings.ts';
import { testLiveChecks } from './live-check-test.ts';
import { checkHeloName } from './helo-check.ts';
import { keepProxies, proxyEndpointsOf } from './proxy-secrets.ts';
import { keyModeOf, maskKey } from '../wire/spec.ts';
import type { SettingsStorage } from './app-settings.ts';
import { accountFacts, interactiveClient, problemOf, testConnection, type ConnectionTest } from './connection-test.ts';
import type { KeyVault } from './key-vault.ts';
import type { ServiceClients, ServiceRef } from './service-ref.ts';

export type ConnectionsDeps = {
  dataDir: string;
  settings: SettingsStorage;
  vault: KeyVault;
  /** Settings for Sift's own service (tests pace it). */
  service?: ServiceOverrides;
};

/** The services the app reaches and the person's choices about them (every answer holds a key's masked form only). */
export type Connections = {
  clients: ServiceClients;
  /** Sift's own service, started on first use. */
  ownService(): Promise<EmbeddedService>;
  view(): SettingsView;
  /** Tries a URL and key (or the saved key when none is given) with one GET /account. */
  test(request: { baseUrl: string; apiKey?: string }): Promise<ConnectionTest>;
  /** Saves a hosted service (a new key, or the saved one with a new URL or label) and makes it current. */
  saveHosted(request: { baseUrl: string; label: string; apiKey?: string }): SettingsView;
  /** Sift's own service from now on: a demo (sandbox key), or live checks from this computer. */
  useOwn(mode: 'sandbox' | 'live'): SettingsView;
  setSharing(sharing: { enabled: boolean; port: number }): SettingsView;
  /** How Sift's own service checks live addresses: its next conversations follow at once. */
  setEngine(engine: EngineSettings): Promise<SettingsView>;
  /** Port 25 from this computer now, directly and through each proxy given; nothing is saved. */
  testLiveChecks(request: { proxies: string[] }): Promise<LiveCheckTest>;
  checkHelo(helo: string): Promise<HeloCheck>;
  setAppearance(appearance: Appearance): SettingsView;
  /** Removes the hosted service and its key from this computer. */
  forgetHosted(): SettingsView;
  /** The current service's account, for the badge on every screen. */
  account(): Promise<AccountView>;
};

export function createConnections(deps: ConnectionsDeps): Connections {
  let own: Promise<EmbeddedService> | undefined;
  const clients = new Map<string, Promise<ServiceClient>>();
  const settings = () => deps.settings.read();

  /** The own service's live-check settings: the person's, under what the caller set (tests, flags). */
  const ownSmtp = (engine: EngineSettings) => ({ ...smtpSettingsOf(engine, deps.vault), ...deps.service?.smtp });

  function ownService(): Promise<EmbeddedService> {
    const { sharing } = settings();
    own ??= startEmbeddedService(deps.dataDir, {
      ...deps.service,
      ...(sharing.enabled ? { port: sharing.port } : {}),
      smtp: ownSmtp(settings().engine),
    });
    return own;
  }

  function hostedKey(connectionId: string): { baseUrl: string; key: string } {
    const hosted = settings().hosted;
    if (!hosted || hosted.id !== connectionId) {
      throw new AppError(
        'not_found',
        'The service this list was sent to is no longer set up in Settings. Set it up again to go on.',
      );
    }
    const key = deps.vault.get(hosted.id);
    if (!key) {
      throw new AppError(
        'unauthorized',
        `The API key for ${hosted.label} was kept for one run only and is gone. Enter it again in Settings to go on.`,
      );
    }
    return { baseUrl: hosted.baseUrl, key };
  }

  const serviceClients: ServiceClients = {
    async current(): Promise<ServiceRef> {
      const current = settings();
      return current.service === 'hosted' && current.hosted
        ? { kind: 'hosted', connectionId: current.hosted.id }
        : { kind: 'embedded', mode: current.ownMode };
    },
    clientFor(ref) {
      const id = ref.kind === 'embedded' ? `own:${ref.mode}` : `hosted:${ref.connectionId}`;
      let client = clients.get(id);
      if (!client) {
        client = (async () => {
          if (ref.kind === 'embedded') {
            const service = await ownService();
            const apiKey = await service.keyFor(ref.mode);
            return createServiceClient({
              baseUrl: service.baseUrl,
              apiKey,
              budget: sharedBudgetFor(apiKey, deps.dataDir),
              serviceName: ownServiceName,
            });
          }
          // A `sift clean` on the same data folder shares the key's limits with the app.
          const { baseUrl, key } = hostedKey(ref.connectionId);
          return createServiceClient({ baseUrl, apiKey: key, budget: sharedBudgetFor(key, deps.dataDir) });
        })();
        clients.set(id, client);
        // A failure is not kept: the next call tries again (after the person fixed Settings, say).
        client.catch(() => clients.delete(id));
      }
      return client;
    },
    async close() {
      await (await own?.catch(() => undefined))?.close();
    },
  };

  function view() {
    const current = settings();
    const hosted = current.hosted;
    return {
      service: current.service,
      ownMode: current.ownMode,
      hosted: hosted && {
        baseUrl: hosted.baseUrl,
        label: hosted.label,
        maskedKey: hosted.maskedKey,
        mode: hosted.mode,
        keyAvailable: deps.vault.get(hosted.id) !== undefined,
      },
      keyProtection: deps.vault.protection,
      sharing: current.sharing,
      engine: current.engine,
      engineDefaults: (({ helo, mailFrom }) => ({ helo, mailFrom }))(smtpSettings()),
      appearance: current.appearance,
      checkingChosen: current.checkingChosen,
    };
  }

  return {
    clients: serviceClients,
    ownService,
    view,

    /** Tries a URL and key (or the saved key when none is given) with one GET /account. */
    async test(request: { baseUrl: string; apiKey?: string }): Promise<ConnectionTest> {
      const hosted = settings().hosted;
      const key = request.apiKey ?? (hosted ? deps.vault.get(hosted.id) : undefined);
      if (!key) return { ok: false, problem: 'invalid', message: 'Enter the API key for this service.' };
      const memory = openReachMemory(deps.dataDir);
      try {
        return await testConnection(request.baseUrl, key, memory.get);
      } finally {
        memory.close();
      }
    },

    /** Saves a hosted service (a new key, or the saved one with a new URL or label) and makes it current. */
    saveHosted(request: { baseUrl: string; label: string; apiKey?: string }) {
      const current = settings();
      const key = request.apiKey ?? (current.hosted ? deps.vault.get(current.hosted.id) : undefined);
      if (!key) throw new AppError('bad_request', 'Enter the API key for this service.');
      const mode = keyModeOf(key);
      try {
        interactiveClient(request.baseUrl, key);
      } catch (error) {
        throw new AppError('bad_request', problemOf(error).message);
      }
      if (!mode) throw new AppError('bad_request', 'An API key starts with svc_live_ or svc_test_.');
      // A new key or another service is a new connection: jobs sent with the old one keep their own.
      const same = current.hosted && !request.apiKey && current.hosted.baseUrl === request.baseUrl.trim();
      const id = same ? current.hosted!.id : `con_${randomBytes(8).toString('hex')}`;
      if (!same) deps.vault.put(id, key);
      const label = request.label.trim() || new URL(request.baseUrl.trim()).host;
      // Read again: the vault may keep its ciphertexts in the same settings file.
      deps.settings.write({
        ...settings(),
        service: 'hosted',
        checkingChosen: true,
        hosted: { id, baseUrl: request.baseUrl.trim(), label, maskedKey: maskKey(key), mode },
      });
      clients.delete(`hosted:${id}`);
      return view();
    },

    /** Sift's own service from now on: a demo (sandbox key), or live checks from this computer. */
    useOwn(mode: 'sandbox' | 'live') {
      deps.settings.write({ ...settings(), service: 'own', ownMode: mode, checkingChosen: true });
      return view();
    },

    /** Lets other tools on this computer reach Sift's own service on a fixed loopback port, from the next start. */
    setSharing(sharing: { enabled: boolean; port: number }) {
      deps.settings.write({ ...settings(), sharing });
      return view();
    },

    /** How Sift's own service checks live addresses: its next conversations follow at once. */
    async setEngine(engine: EngineSettings) {
      const { proxies: typed = [], ...rest } = engine;
      const proxies = keepProxies(typed, settings().engine.proxies ?? [], deps.vault);
      const saved = proxies.length > 0 ? { ...rest, proxies } : rest;
      deps.settings.write({ ...settings(), engine: saved });
      await (await own?.catch(() => undefined))?.reconfigure(ownSmtp(saved));
      return view();
    },

    /** Port 25 from this computer now, directly and through each proxy given; nothing is saved. */
    async testLiveChecks(request: { proxies: string[] }) {
      const { proxies: _saved, ...engine } = settings().engine;
      return testLiveChecks(
        smtpSettings({ ...ownSmtp(engine), proxies: proxyEndpointsOf(request.proxies, deps.vault) }),
      );
    },

    /** What DNS says of a HELO name, asked of the resolvers live checks use; nothing is saved. */
    async checkHelo(helo: string) {
      return checkHeloName(helo, ownSmtp(settings().engine).resolvers ?? []);
    },

    /** Light, dark or the system's, at once. */
    setAppearance(appearance: Appearance) {
      deps.settings.write({ ...settings(), appearance });
      return view();
    },

    /** Removes the hosted service and its key from this computer. */
    forgetHosted() {
      const current = settings();
      if (current.hosted) deps.vault.remove(current.hosted.id);
      deps.settings.write({ ...settings(), service: 'own', hosted: null });
      return view();
    },

    /** The current service's account: mode, balance and free checks, for the badge on every screen. */
    async account() {
      const ref = await serviceClients.current();
      try {
        const facts = await accountFacts(await serviceClients.clientFor(ref));
        // Sift's own service knows the threshold set on its screen; a hosted one's is in its own dashboard.
        const lowThreshold =
          ref.kind === 'embedded' ? (await (await ownService()).dashboard.account()).lowThreshold : null;
        const low = lowThreshold !== null && facts.balance !== undefined && facts.balance < lowThreshold;
        return {
          service: ref.kind === 'embedded' ? ('own' as const) : ('hosted' as const),
          ...facts,
          low,
          problem: null,
        };
      } catch (error) {
        const message =
          error instanceof AppError || error instanceof ServiceClientError ? problemOf(error).message : String(error);
        return {
          service: ref.kind === 'embedded' ? ('own' as const) : ('hosted' as const),
          mode: 'unknown',
          problem: message,
        };
      }
    },
  };
}
