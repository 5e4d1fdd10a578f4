// Signed event delivery: every event goes to every endpoint until one answers 2xx, with backoff over
// roughly a day, then `failed` (replayable by hand). A retry sends the same event id and body.
import { createHmac } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { maskUrlCredentials } from '../../common/url-credentials.ts';
import { guardedLookup, refuseInsideLiteral } from './webhook-address.ts';
import type { SqlConnection } from '../storage/sql-connection.ts';
import { headers } from '../wire/spec.ts';
import type { ServiceConfig } from './service-config.ts';
import { claimDueDeliveries, recordAttempt, type DueDelivery } from './store/webhooks-store.ts';

/** `Service-Signature: t=<unix>,v1=<hex HMAC-SHA256 of "<t>." + raw body>`. */
function signatureHeader(secret: string, timestampSeconds: number, body: string): string {
  const digest = createHmac('sha256', secret).update(`${timestampSeconds}.`).update(body).digest('hex');
  return `t=${timestampSeconds},v1=${digest}`;
}

/**
 * POSTs one delivery and answers the status (a redirect is an answer, not followed). The connection goes
 * only to an address the webhook rule allows, the name resolved as it connects (webhook-address.ts).
 */
function post(row: DueDelivery, config: ServiceConfig): Promise<number> {
  const url = new URL(row.url);
  refuseInsideLiteral(url, config.allowPrivateWebhooks);
  const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const request = send(
      url,
      {
        method: 'POST',
        lookup: guardedLookup(config.allowPrivateWebhooks),
        signal: AbortSignal.timeout(config.webhookTimeoutMs),
        headers: {
          'Content-Type': 'application/json',
          'Content-Length': Buffer.byteLength(row.body),
          'User-Agent': 'Sift-Webhooks/1',
          [headers.signature]: signatureHeader(row.secret, Math.floor(config.now() / 1000), row.body),
        },
      },
      (response) => {
        response.resume();
        resolve(response.statusCode ?? 0);
      },
    );
    request.on('error', reject);
    request.end(row.body);
  });
}

export type DeliveryWorker = { runOnce(): Promise<number>; start(): void; stop(): Promise<void> };

/** Deliveries sent per tick. */
const perTick = 50;

export function createDeliveryWorker(
  db: SqlConnection,
  config: ServiceConfig,
  /** This process's id: the deliveries it claims are its own until it is gone (service-presence.ts). */
  owner: string,
): DeliveryWorker {
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<number> | undefined;
  let stopped = false;

  async function attempt(row: DueDelivery) {
    let status: number | null = null;
    let error: string | null = null;
    try {
      status = await post(row, config);
    } catch (caught) {
      // Stored and shown in the delivery log: never with a URL's credentials.
      error = maskUrlCredentials(caught instanceof Error ? caught.message : String(caught));
    }
    const now = config.now();
    const attempts = row.attempts + 1;
    const delivered = status !== null && status >= 200 && status < 300;
    const wait = config.webhookRetryScheduleMs[attempts - 1];
    await recordAttempt(db, now, row.id, {
      attempts,
      status,
      error: delivered ? null : (error ?? `HTTP ${status}`),
      delivered,
      retryAt: wait === undefined ? null : now + wait,
    });
  }

  async function deliverDue(): Promise<number> {
    const due = await claimDueDeliveries(db, config.now(), perTick, owner);
    await Promise.all(due.map(attempt));
    return due.length;
  }

  function schedule() {
    if (stopped) return;
    timer = setTimeout(async () => {
      running = deliverDue();
      await running.catch(() => 0);
      running = undefined;
      schedule();
    }, config.deliveryTickMs);
  }

  return {
    runOnce: () => deliverDue(),
    start() {
      stopped = false;
      schedule();
    },
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running?.catch(() => 0);
    },
  };
}
