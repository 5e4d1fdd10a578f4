// The operations the spec keeps in a dashboard rather than the HTTP API: keys, webhook endpoints,
// the low-balance threshold, top-ups and deliveries. The app's settings screen and `sift service` call these.
import type { KeyMode } from '../wire/spec.ts';
import type { SqlConnection } from '../storage/sql-connection.ts';
import { createApiKey, listApiKeys, revokeApiKey, setKeyRateLimits, type ApiKeyRecord } from './store/keys-store.ts';
import { failBatch } from './store/batch-lifecycle-store.ts';
import { loadBatch, runningBatches } from './store/batches-store.ts';
import { estimatePace, type PaceEstimate } from './engines/live/pace-estimate.ts';
import { createProxyPool, egressLabels } from './engines/live/proxy-pool.ts';
import { accountState, setLowBalanceThreshold, topUp, type AccountState } from './store/credits-store.ts';
import type { RateLimitOperation, RateLimitRule, ServiceConfig } from './service-config.ts';
import {
  createEndpoint,
  deleteEndpoint,
  listDeliveries,
  listEndpoints,
  replayDelivery,
  type Delivery,
  type WebhookEndpoint,
} from './store/webhooks-store.ts';
import { checkWebhookUrl, insideRangeOf } from './webhook-address.ts';

export type Dashboard = {
  /** The full key is in the answer this once; afterwards only its masked form exists. */
  createKey(mode: KeyMode, label: string): Promise<{ key: string; record: ApiKeyRecord }>;
  listKeys(): Promise<ApiKeyRecord[]>;
  revokeKey(id: string): Promise<ApiKeyRecord>;
  setKeyRateLimits(id: string, limits: Partial<Record<RateLimitOperation, RateLimitRule>>): Promise<ApiKeyRecord>;
  /** The signing secret is in the answer this once. */
  createWebhookEndpoint(url: string): Promise<WebhookEndpoint & { secret: string }>;
  /** Each endpoint, with the inside range its host is in (this computer, a private network), if it is. */
  listWebhookEndpoints(): Promise<(WebhookEndpoint & { inside?: string })[]>;
  /** Whether webhooks may go to this computer and private networks (`--allow-private-webhooks`). */
  allowsPrivateWebhooks: boolean;
  deleteWebhookEndpoint(id: string): Promise<void>;
  listDeliveries(): Promise<Delivery[]>;
  replayDelivery(id: string): Promise<void>;
  account(): Promise<AccountState>;
  topUp(credits: number): Promise<AccountState>;
  setLowBalanceThreshold(threshold: number | null): Promise<void>;
  /** For operators: give up a running batch (refunded, `batch.failed`). */
  failBatch(id: string, message: string): Promise<void>;
  /** The running batches, oldest first, each with how far it is and, for live ones, its time left at a polite pace. */
  runningBatches(): Promise<RunningBatch[]>;
};

type RunningBatch = {
  id: string;
  name: string;
  mode: KeyMode;
  unique: number;
  done: number;
  estimate?: PaceEstimate;
};

export function createDashboard(db: SqlConnection, config: ServiceConfig): Dashboard {
  return {
    createKey: (mode, label) => createApiKey(db, config.now(), mode, label),
    listKeys: () => listApiKeys(db),
    revokeKey: (id) => revokeApiKey(db, id, config.now()),
    setKeyRateLimits: (id, limits) => setKeyRateLimits(db, id, limits),
    createWebhookEndpoint: async (url) =>
      createEndpoint(db, config.now(), await checkWebhookUrl(url, config.allowPrivateWebhooks)),
    listWebhookEndpoints: async () =>
      Promise.all(
        (await listEndpoints(db)).map(async (endpoint) => {
          const inside = await insideRangeOf(endpoint.url);
          return inside ? { ...endpoint, inside } : endpoint;
        }),
      ),
    allowsPrivateWebhooks: config.allowPrivateWebhooks,
    deleteWebhookEndpoint: (id) => deleteEndpoint(db, id),
    listDeliveries: () => listDeliveries(db),
    replayDelivery: (id) => replayDelivery(db, config.now(), id),
    account: () => accountState(db, config, config.now()),
    async topUp(credits) {
      await topUp(db, credits);
      return accountState(db, config, config.now());
    },
    setLowBalanceThreshold: (threshold) => setLowBalanceThreshold(db, threshold),
    failBatch: (id, message) => failBatch(db, config.now(), id, message),
    async runningBatches() {
      const now = config.now();
      // Budgets are per way out: the proxies given to this command, as the workers would pick them.
      const egressOf = egressLabels(createProxyPool(config.smtp.proxies, config.smtp.connectRetryMs), now);
      const running: RunningBatch[] = [];
      for (const { id } of await runningBatches(db)) {
        const batch = await loadBatch(db, id);
        if (!batch) continue;
        const estimate =
          batch.mode === 'live' ? await estimatePace(db, batch.row_key, config.smtp, egressOf, now) : undefined;
        running.push({
          id,
          name: batch.name,
          mode: batch.mode,
          unique: batch.unique_count,
          done: batch.done_count,
          ...(estimate ? { estimate } : {}),
        });
      }
      return running;
    },
  };
}
