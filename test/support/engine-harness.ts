// A verification service whose live keys use the local SMTP engine, pointed at a mail world on loopback.
import type { SmtpSettings } from '../../electron/core/service/engines/live/smtp-settings.ts';
import {
  startVerificationService,
  type VerificationService,
} from '../../electron/core/service/verification-service.ts';
import type { MailWorld } from './mail-world.ts';
import { apiClient, testServicePlace, waitFor } from './service-harness.ts';

export type EngineRun = { service: VerificationService; api: ReturnType<typeof apiClient>; key: string };

export async function startEngineService(
  world: MailWorld,
  smtp: Partial<SmtpSettings> = {},
  now?: () => number,
  /** Its data (a service started again passes the same); a new place by default. */
  place?: { dataDir: string; database?: string },
): Promise<EngineRun> {
  const service = await startVerificationService({
    ...(place ?? (await testServicePlace())),
    ...(now ? { now } : {}),
    smtp: {
      helo: 'probe.sift.test',
      mailFrom: 'bounces@sift.test',
      resolvers: [world.resolver],
      port: world.smtpPort,
      timeoutMs: 1500,
      perHostRate: 50,
      perHostConcurrency: 4,
      greylistRetryMs: [100, 100],
      connectRetryMs: 100,
      backoffMs: 200,
      ...smtp,
    },
  });
  const { key, record } = await service.dashboard.createKey('live', 'engine test');
  await service.dashboard.setKeyRateLimits(record.id, { batchStatus: { limit: 100_000, windowSeconds: 60 } });
  await service.dashboard.topUp(1000);
  return { service, api: apiClient(service, key), key };
}

export type Row = {
  email: string;
  result: string;
  billed: boolean;
  reason?: string;
  provider?: string;
  free?: boolean;
  smtp_reply?: string;
  smtp_tls?: string;
};

/**
 * Submits a batch and waits (bounded) for it to end; answers its final status body and every row by address.
 * `onStatus` sees each status body while it runs (polled every `everyMs`).
 */
export async function runBatch(
  run: EngineRun,
  emails: string[],
  timeoutMs = 15_000,
  watch: { onStatus?: (body: Record<string, unknown>) => void; everyMs?: number } = {},
) {
  const created = await run.api('POST', '/batches', { name: 'engine', emails });
  if (created.status !== 201) throw new Error(`batch refused: ${created.text}`);
  const id = created.body.id as string;
  const status = await waitFor(
    async () => {
      const body = (await run.api('GET', `/batches/${id}`)).body;
      if (body.status === 'running') watch.onStatus?.(body);
      return body.status !== 'running' && body;
    },
    timeoutMs,
    watch.everyMs,
  );
  const rows = (await run.api('GET', `/batches/${id}/results?limit=1000`)).body.data as Row[];
  return { id, status, rows: new Map(rows.map((row) => [row.email, row])) };
}
