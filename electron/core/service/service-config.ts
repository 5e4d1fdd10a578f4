// The embedded service's settings. Defaults follow the spec where it shows a number; the rest are Sift's own.
import { defaultRateLimits } from '../wire/spec.ts';
import { smtpSettings, type SmtpSettings } from './engines/live/smtp-settings.ts';
import { maxIndexId } from '../email/address-index.ts';
import { seqMask } from './store/row-ids.ts';

export type RateLimitRule = { limit: number; windowSeconds: number };
export type RateLimitOperation = keyof typeof defaultRateLimits | 'other';
type RateLimitRules = Record<RateLimitOperation, RateLimitRule>;

export type ServiceConfig = {
  /** Uploads in progress, and the SQLite database unless `database` names another. */
  dataDir: string;
  /** A PostgreSQL URL (`postgres://…`) for a service that several processes share; SQLite when absent. */
  database?: string;
  host: '127.0.0.1';
  port: number;
  rateLimits: RateLimitRules;
  /** Probes per second to any one mail host. */
  probesPerSecondPerHost: number;
  /** The same for sandbox keys, whose scripted verdicts open no connection. */
  sandboxProbesPerSecondPerHost: number;
  /** How many addresses are probed at once. */
  probeConcurrency: number;
  /** At most this many addresses per worker round. */
  probesPerRound: number;
  workerTickMs: number;
  /**
   * How long a claim on shared work (a batch's chunks, a live domain) lasts unless its holder renews it;
   * the holder renews it while it works, so a dead worker's work is taken over within this of its last sign.
   */
  workLeaseMs: number;
  /** How often a process tells the database it is alive. */
  processHeartbeatMs: number;
  /** A process not heard from for this long is gone: another lets go of what it had claimed. */
  processGoneAfterMs: number;
  /** Tries per address before the service gives the batch up (failed, refunded). */
  maxProbeAttempts: number;
  freeChecksPerMonth: number;
  maxBatchAddresses: number;
  maxUploadBytes: number;
  maxJsonBytes: number;
  /** How long a finished batch's results (and cursors) stay readable. */
  retentionMs: number;
  /** Waits between webhook delivery attempts; the default spans roughly a day. */
  webhookRetryScheduleMs: number[];
  webhookTimeoutMs: number;
  /**
   * Webhooks to this computer, link-local and private networks (`--allow-private-webhooks`): refused unless
   * the operator says so, as any key holder's batch makes the service POST to every endpoint.
   */
  allowPrivateWebhooks: boolean;
  deliveryTickMs: number;
  now: () => number;
  /** The local engine's settings for live keys: identity, resolvers, port, pacing, retries. */
  smtp: SmtpSettings;
};

/** What a caller may set: any field, the SMTP settings field by field. */
export type ServiceOverrides = Partial<Omit<ServiceConfig, 'smtp'>> & { smtp?: Partial<SmtpSettings> };

const minute = 60_000;
const hour = 60 * minute;

export function serviceConfig(overrides: ServiceOverrides & { dataDir: string }): ServiceConfig {
  const { smtp, ...rest } = overrides;
  // A row's seq is the low half of its key (store/row-ids.ts), and an id in the upload's address index.
  const maxSeq = Math.min(seqMask, maxIndexId);
  if ((rest.maxBatchAddresses ?? 0) > maxSeq) throw new RangeError(`A batch can hold at most ${maxSeq} addresses.`);
  return {
    host: '127.0.0.1',
    port: 0,
    rateLimits: {
      ...defaultRateLimits,
      // Not in the spec's table (results, account, cancel, download): Sift's own ceiling per key.
      other: { limit: 1200, windowSeconds: 60 },
    },
    probesPerSecondPerHost: 20,
    // The sandbox opens no connection: nothing to pace unless a test asks for it.
    sandboxProbesPerSecondPerHost: Number.POSITIVE_INFINITY,
    probeConcurrency: 32,
    probesPerRound: 1000,
    workerTickMs: 50,
    workLeaseMs: 15_000,
    processHeartbeatMs: 5000,
    processGoneAfterMs: 15_000,
    maxProbeAttempts: 3,
    freeChecksPerMonth: 100,
    maxBatchAddresses: 1_000_000,
    maxUploadBytes: 1024 ** 3,
    maxJsonBytes: 64 * 1024 ** 2,
    retentionMs: 30 * 24 * hour,
    webhookRetryScheduleMs: [minute, 5 * minute, 30 * minute, 2 * hour, 5 * hour, 8 * hour, 8 * hour],
    webhookTimeoutMs: 10_000,
    allowPrivateWebhooks: false,
    deliveryTickMs: 1000,
    now: Date.now,
    ...rest,
    smtp: smtpSettings(smtp),
  };
}
