// Webhook endpoints, events and their deliveries: what is stored, and the steps of a delivery's life
// (due, claimed, delivered, retrying, failed). Sending them is webhook-delivery.ts's job.
import { randomBytes } from 'node:crypto';
import { eventDataSchemas } from '../../wire/assumptions.ts';
import { livingProcessesSql } from './service-processes-store.ts';
import type { SqlConnection } from '../../storage/sql-connection.ts';
import { newId } from './schema.ts';

export type EventType = keyof typeof eventDataSchemas;
type DeliveryStatus = 'pending' | 'retrying' | 'delivered' | 'failed';

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

/** Stores an endpoint whose URL webhook-address.ts has checked. */
export async function createEndpoint(
  db: SqlConnection,
  now: number,
  parsed: URL,
): Promise<WebhookEndpoint & { secret: string }> {
  const id = newId('we');
  const secret = `whsec_${randomBytes(24).toString('base64url')}`;
  await db.run('INSERT INTO webhook_endpoints (id, url, secret, created_at) VALUES (?, ?, ?, ?)', [
    id,
    parsed.href,
    secret,
    now,
  ]);
  return { id, url: parsed.href, createdAt: now, secret };
}

export async function listEndpoints(db: SqlConnection): Promise<WebhookEndpoint[]> {
  return (
    (await db.all('SELECT id, url, created_at FROM webhook_endpoints WHERE disabled = 0 ORDER BY created_at')) as {
      id: string;
      url: string;
      created_at: number;
    }[]
  ).map((row) => ({ id: row.id, url: row.url, createdAt: row.created_at }));
}

export async function deleteEndpoint(db: SqlConnection, id: string): Promise<void> {
  await db.run('UPDATE webhook_endpoints SET disabled = 1 WHERE id = ?', [id]);
}

/** Stores an event and a pending delivery per endpoint; call inside the transaction that caused it. */
export async function recordEvent(
  db: SqlConnection,
  now: number,
  type: EventType,
  data: Record<string, unknown>,
): Promise<string> {
  const id = newId('evt');
  eventDataSchemas[type].parse(data);
  const body = JSON.stringify({ id, type, created_at: new Date(now).toISOString(), data });
  await db.run('INSERT INTO events (id, type, body, created_at) VALUES (?, ?, ?, ?)', [id, type, body, now]);
  const insert =
    "INSERT INTO deliveries (id, event_id, endpoint_id, status, next_attempt_at, updated_at) VALUES (?, ?, ?, 'pending', ?, ?)";
  for (const endpoint of await listEndpoints(db)) await db.run(insert, [newId('del'), id, endpoint.id, now, now]);
  return id;
}

export async function listDeliveries(db: SqlConnection): Promise<Delivery[]> {
  const rows = await db.all<Record<string, unknown>>(
    `SELECT d.*, e.type AS event_type FROM deliveries d JOIN events e ON e.id = d.event_id ORDER BY d.updated_at DESC, d.id`,
  );
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
export async function replayDelivery(db: SqlConnection, now: number, id: string): Promise<void> {
  const changed = await db.run(
    "UPDATE deliveries SET status = 'pending', attempts = 0, next_attempt_at = ?, updated_at = ? WHERE id = ?",
    [now, now, id],
  );
  if (changed.changes === 0) throw new Error(`No delivery ${id}`);
}

export type DueDelivery = { id: string; attempts: number; url: string; secret: string; body: string };

/** Deliveries due now, oldest first, claimed (no due time) so the next tick does not send them again. */
export async function claimDueDeliveries(
  db: SqlConnection,
  now: number,
  limit: number,
  /** The process that will send them: if it goes, another gives them a due time again. */
  owner: string,
): Promise<DueDelivery[]> {
  return db.transaction(async (tx) => {
    const due = (await tx.all(
      `SELECT d.id, d.attempts, w.url, w.secret, e.body FROM deliveries d
       JOIN webhook_endpoints w ON w.id = d.endpoint_id JOIN events e ON e.id = d.event_id
       WHERE d.status IN ('pending', 'retrying') AND d.next_attempt_at <= ? ORDER BY d.next_attempt_at LIMIT ?`,
      [now, limit],
    )) as DueDelivery[];
    for (const row of due) {
      await tx.run('UPDATE deliveries SET next_attempt_at = NULL, claimed_by = ? WHERE id = ?', [owner, row.id]);
    }
    return due;
  });
}

/** What one attempt came to: delivered, to be retried at `retryAt`, or failed for good (`retryAt` null). */
export async function recordAttempt(
  db: SqlConnection,
  now: number,
  id: string,
  attempt: {
    attempts: number;
    status: number | null;
    error: string | null;
    delivered: boolean;
    retryAt: number | null;
  },
): Promise<void> {
  const state = attempt.delivered ? 'delivered' : attempt.retryAt === null ? 'failed' : 'retrying';
  await db.run(
    'UPDATE deliveries SET status = ?, attempts = ?, next_attempt_at = ?, last_status = ?, last_error = ?, updated_at = ? WHERE id = ?',
    [state, attempt.attempts, attempt.delivered ? null : attempt.retryAt, attempt.status, attempt.error, now, id],
  );
}

/** A delivery claimed by a process that is gone has no due time: give it one again. */
export async function reviveClaimedDeliveries(db: SqlConnection, now: number): Promise<void> {
  await db.run(
    `UPDATE deliveries SET next_attempt_at = ? WHERE status IN ('pending', 'retrying') AND next_attempt_at IS NULL
     AND (claimed_by IS NULL OR claimed_by NOT IN (${livingProcessesSql}))`,
    [now],
  );
}
