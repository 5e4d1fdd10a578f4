// The service inside Sift itself, for a fresh install with no account: started in-process on
// loopback, with a sandbox key made for this run only (nothing secret is stored), revoked on close.
import { join } from 'node:path';
import type { ServiceConfig } from './service-config.ts';
import { startVerificationService } from './verification-service.ts';

export type EmbeddedService = { baseUrl: string; apiKey: string; close(): Promise<void> };

export async function startEmbeddedService(
  appDataDir: string,
  overrides: Partial<ServiceConfig> = {},
): Promise<EmbeddedService> {
  const service = await startVerificationService({ dataDir: join(appDataDir, 'service'), ...overrides });
  const { key, record } = service.dashboard.createKey('sandbox', 'Sift (this run)');
  // Generous status budget: the app is this service's only client.
  service.dashboard.setKeyRateLimits(record.id, { batchStatus: { limit: 600, windowSeconds: 60 } });
  return {
    baseUrl: service.baseUrl,
    apiKey: key,
    async close() {
      service.dashboard.revokeKey(record.id);
      await service.close();
    },
  };
}
