// The app's screen for Sift's own service: the same dashboard module as `sift service`'s commands.
import { AppError } from '../../common/app-error.ts';
import type { ServiceOverview } from '../../common/contract.ts';
import type { Connections } from '../connections/connections.ts';
import type { Handlers } from './dispatch.ts';
import { WebhookRefused } from '../service/webhook-address.ts';

type DashboardCall =
  | 'service:overview'
  | 'service:createKey'
  | 'service:revokeKey'
  | 'service:addWebhook'
  | 'service:removeWebhook'
  | 'service:replayDelivery'
  | 'service:setThreshold';

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());
/** Deliveries shown, newest first. */
const deliveriesShown = 50;

export function serviceDashboardHandlers(connections: Connections): Pick<Handlers, DashboardCall> {
  const own = () => connections.ownService();

  async function overview(): Promise<ServiceOverview> {
    const service = await own();
    const { dashboard } = service;
    const appKeys = new Set(service.appKeyIds());
    const [account, keys, endpoints, deliveries] = await Promise.all([
      dashboard.account(),
      dashboard.listKeys(),
      dashboard.listWebhookEndpoints(),
      dashboard.listDeliveries(),
    ]);
    return {
      baseUrl: service.baseUrl,
      keys: keys.map((key) => ({
        id: key.id,
        mode: key.mode,
        label: key.label,
        masked: key.masked,
        state: key.state,
        createdAt: iso(key.createdAt)!,
        lastUsedAt: iso(key.lastUsedAt),
        usedByApp: appKeys.has(key.id),
      })),
      endpoints: endpoints.map((endpoint) => ({ ...endpoint, createdAt: iso(endpoint.createdAt)! })),
      privateWebhooks: dashboard.allowsPrivateWebhooks,
      deliveries: deliveries
        .slice(0, deliveriesShown)
        .map(({ eventId: _event, ...delivery }) => ({ ...delivery, nextAttemptAt: iso(delivery.nextAttemptAt) })),
      account: { balance: account.balance, freeRemaining: account.freeRemaining, lowThreshold: account.lowThreshold },
    };
  }

  /** The dashboard's own errors ("No key …") are plain Errors: a person is told what was not found. */
  async function change(work: () => Promise<unknown>): Promise<ServiceOverview> {
    try {
      await work();
    } catch (error) {
      throw new AppError('not_found', error instanceof Error ? error.message : String(error));
    }
    return overview();
  }

  return {
    'service:overview': () => overview(),
    'service:createKey': async ({ mode, label }) => {
      const { key } = await (await own()).dashboard.createKey(mode, label);
      return { key, overview: await overview() };
    },
    'service:revokeKey': async ({ keyId }) => {
      const service = await own();
      if (service.appKeyIds().includes(keyId)) {
        throw new AppError(
          'bad_request',
          'This key is the one Sift itself uses while it runs; it is revoked when Sift quits.',
        );
      }
      return change(() => service.dashboard.revokeKey(keyId));
    },
    'service:addWebhook': async ({ url }) => {
      try {
        const { secret } = await (await own()).dashboard.createWebhookEndpoint(url);
        return { secret, overview: await overview() };
      } catch (error) {
        if (error instanceof WebhookRefused) throw new AppError('bad_request', error.message);
        throw error;
      }
    },
    'service:removeWebhook': async ({ endpointId }) => {
      const { dashboard } = await own();
      return change(() => dashboard.deleteWebhookEndpoint(endpointId));
    },
    'service:replayDelivery': async ({ deliveryId }) => {
      const { dashboard } = await own();
      return change(() => dashboard.replayDelivery(deliveryId));
    },
    'service:setThreshold': async ({ credits }) => {
      const { dashboard } = await own();
      return change(() => dashboard.setLowBalanceThreshold(credits));
    },
  };
}
