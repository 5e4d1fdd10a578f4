// The service inside Sift itself, for a fresh install with no account: started in-process on
// loopback, with keys made for this run only (nothing secret is stored), revoked on close.
import { join } from 'node:path';
import type { KeyMode } from '../wire/spec.ts';
import type { Dashboard } from './dashboard.ts';
import type { ServiceOverrides } from './service-config.ts';
import { startVerificationService, type VerificationService } from './verification-service.ts';

export type EmbeddedService = {
  baseUrl: string;
  port: number;
  dashboard: Dashboard;
  /** The sandbox key of this run (made at start). */
  apiKey: string;
  /** This run's key for a mode, made on first use. */
  keyFor(mode: KeyMode): Promise<string>;
  /** The ids of the keys this run made for the app itself. */
  appKeyIds(): string[];
  /** New live-check settings, at once (see VerificationService.reconfigure). */
  reconfigure: VerificationService['reconfigure'];
  close(): Promise<void>;
};

export async function startEmbeddedService(
  appDataDir: string,
  overrides: ServiceOverrides = {},
): Promise<EmbeddedService> {
  const service = await startVerificationService({ dataDir: join(appDataDir, 'service'), ...overrides });
  const made = new Map<KeyMode, { key: string; id: string }>();
  const keyFor = async (mode: KeyMode) => {
    let entry = made.get(mode);
    if (!entry) {
      const { key, record } = await service.dashboard.createKey(mode, `Sift app (this run, ${mode})`);
      // Generous budgets: the app is this key's only client, and a person cleaning several small lists in a
      // minute must not wait on limits meant to share a hosted service between many clients.
      await service.dashboard.setKeyRateLimits(record.id, {
        batchStatus: { limit: 600, windowSeconds: 60 },
        uploadFile: { limit: 120, windowSeconds: 60 },
        createBatch: { limit: 120, windowSeconds: 60 },
      });
      entry = { key, id: record.id };
      made.set(mode, entry);
    }
    return entry.key;
  };
  const apiKey = await keyFor('sandbox');
  return {
    baseUrl: service.baseUrl,
    port: service.port,
    dashboard: service.dashboard,
    apiKey,
    keyFor,
    appKeyIds: () => [...made.values()].map((entry) => entry.id),
    reconfigure: (smtp) => service.reconfigure(smtp),
    async close() {
      for (const { id } of made.values()) await service.dashboard.revokeKey(id);
      await service.close();
    },
  };
}
