// Signed event delivery: every event goes to every endpoint until one answers 2xx, with backoff
// over roughly a day, then `failed` (replayable by hand). A retry sends the same event id and body.
import { createHmac, randomBytes } from 'node:crypto';
import { eventDataSchemas } from '../wire/assumptions.ts';
import { headers } from '../wire/spec.ts';
import { transaction, type Database, sql } from '../storage/sqlite.ts';
import { newId } from './schema.ts';
import type { ServiceConfig } from './service-config.ts';

export type EventType = keyof typeof eventDataSchemas;
export type DeliveryStatus = 'pending' | 'retrying' | 'delivered' | 'failed';

export type WebhookEndpoint = { id: string; url: string; createdAt: number };
export type Delivery = {
  id: string;
  eventId: string;
  eventType: string;
  endpointId: string;
  status: DeliveryStatus;
  attempts: number;
  nextAttemptAt: number | null;
  lastStatus: number | null;
  lastError: string | null;
};

/** `Service-Signature: t=<unix>,v1=<hex HMAC-SHA256 of "<t>." + raw body>`. */
export function signatureHeader(secret: string, timestampSeconds: number, body: string): string {
  const digest = createHmac('sha256', secret).update(`${timestampSeconds}.`).update(body).digest('hex');
  return `t=${timestampSeconds},v1=${digest}`;
}

export function createEndpoint(db: Database, now: number, url: string): WebhookEndpoint & { secret: string } {
  const parsed = new URL(url);
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:')
    throw new Error('A webhook URL must be http or https.');
  const id = newId('we');
  const secret = `whsec_${randomBytes(24).toString('base64url')}`;
  sql(db, 'INSERT INTO webhook_endpoints (id, url, secret, created_at) VALUES (?, ?, ?, ?)').run(
    id,
    parsed.href,
    secret,
    now,
  );
  return { id, url: parsed.href, createdAt: now, secret };
}

export function listEndpoints(db: Database): WebhookEndpoint[] {
  return (
    sql(db, 'SELECT id, url, created_at FROM webhook_endpoints WHERE disabled = 0 ORDER BY created_at').all() as {
      id: string;
      url: string;
      created_at: number;
    }[]
  ).map((row) => ({ id: row.id, url: row.url, createdAt: row.created_at }));
}

export function deleteEndpoint(db: Database, id: string): void {
  sql(db, 'UPDATE webhook_endpoints SET disabled = 1 WHERE id = ?').run(id);
}

/** Stores an event and a pending delivery per endpoint; call inside the transaction that caused it. */
export function recordEvent(db: Database, now: number, type: EventType, data: Record<string, unknown>): string {
  const id = newId('evt');
  eventDataSchemas[type].parse(data);
  const body = JSON.stringify({ id, type, created_at: new Date(now).toISOString(), data });
  sql(db, 'INSERT INTO events (id, type, body, created_at) VALUES (?, ?, ?, ?)').run(id, type, body, now);
  const insert = sql(
    db,
    "INSERT INTO deliveries (id, event_id, endpoint_id, status, next_attempt_at, updated_at) VALUES (?, ?, ?, 'pending', ?, ?)",
  );
  for (const endpoint of listEndpoints(db)) insert.run(newId('del'), id, endpoint.id, now, now);
  return id;
}

export function listDeliveries(db: Database): Delivery[] {
  const rows = db
    .prepare(
      `SELECT d.*, e.type AS event_type FROM deliveries d JOIN events e ON e.id = d.event_id ORDER BY d.updated_at DESC, d.id`,
    )
    .all() as Record<string, unknown>[];
  return rows.map((row) => ({
    id: row.id as string,
    eventId: row.event_id as string,
    eventType: row.event_type as string,
    endpointId: row.endpoint_id as string,
    status: row.status as DeliveryStatus,
    attempts: row.attempts as number,
    nextAttemptAt: row.next_attempt_at as number | null,
    lastStatus: row.last_status as number | null,
    lastError: row.last_error as string | null,
  }));
}

/** Sends a failed (or any) delivery again, from the first attempt of the schedule. */
export function replayDelivery(db: Database, now: number, id: string): void {
  const changed = db
    .prepare("UPDATE deliveries SET status = 'pending', attempts = 0, next_attempt_at = ?, updated_at = ? WHERE id = ?")
    .run(now, now, id);
  if (changed.changes === 0) throw new Error(`No delivery ${id}`);
}

export type DeliveryWorker = { runOnce(): Promise<number>; start(): void; stop(): Promise<void> };

export function createDeliveryWorker(db: Database, config: ServiceConfig): DeliveryWorker {
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<number> | undefined;
  let stopped = false;

  async function attempt(row: { id: string; attempts: number; url: string; secret: string; body: string }) {
    let status: number | null = null;
    let error: string | null = null;
    try {
      const response = await fetch(row.url, {
        method: 'POST',
        redirect: 'manual',
        signal: AbortSignal.timeout(config.webhookTimeoutMs),
        headers: {
          'Content-Type': 'application/json',
          'User-Agent': 'Sift-Webhooks/1',
          [headers.signature]: signatureHeader(row.secret, Math.floor(config.now() / 1000), row.body),
        },
        body: row.body,
      });
      status = response.status;
      await response.body?.cancel();
    } catch (caught) {
      error = caught instanceof Error ? caught.message : String(caught);
    }
    const now = config.now();
    const attempts = row.attempts + 1;
    if (status !== null && status >= 200 && status < 300) {
      sql(
        db,
        "UPDATE deliveries SET status = 'delivered', attempts = ?, next_attempt_at = NULL, last_status = ?, last_error = NULL, updated_at = ? WHERE id = ?",
      ).run(attempts, status, now, row.id);
      return;
    }
    const wait = config.webhookRetryScheduleMs[attempts - 1];
    const lastError = error ?? `HTTP ${status}`;
    if (wait === undefined) {
      sql(
        db,
        "UPDATE deliveries SET status = 'failed', attempts = ?, next_attempt_at = NULL, last_status = ?, last_error = ?, updated_at = ? WHERE id = ?",
      ).run(attempts, status, lastError, now, row.id);
    } else {
      sql(
        db,
        "UPDATE deliveries SET status = 'retrying', attempts = ?, next_attempt_at = ?, last_status = ?, last_error = ?, updated_at = ? WHERE id = ?",
      ).run(attempts, now + wait, status, lastError, now, row.id);
    }
  }

  async function deliverDue(): Promise<number> {
    const due = db
      .prepare(
        `SELECT d.id, d.attempts, w.url, w.secret, e.body FROM deliveries d
         JOIN webhook_endpoints w ON w.id = d.endpoint_id JOIN events e ON e.id = d.event_id
         WHERE d.status IN ('pending', 'retrying') AND d.next_attempt_at <= ? ORDER BY d.next_attempt_at LIMIT 50`,
      )
      .all(config.now()) as { id: string; attempts: number; url: string; secret: string; body: string }[];
    // Claimed first, so a slow receiver is not sent the same attempt twice by the next tick.
    transaction(db, () => {
      for (const row of due) sql(db, 'UPDATE deliveries SET next_attempt_at = NULL WHERE id = ?').run(row.id);
    });
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
      // A delivery claimed when the service stopped has no due time: give it one again.
      sql(
        db,
        "UPDATE deliveries SET next_attempt_at = ? WHERE status IN ('pending', 'retrying') AND next_attempt_at IS NULL",
      ).run(config.now());
      schedule();
    },
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running?.catch(() => 0);
    },
  };
}
