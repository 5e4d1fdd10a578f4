// Webhook endpoints, events and their deliveries: what is stored, and the steps of a delivery's life
// (due, claimed, delivered, retrying, failed). Sending them is webhook-delivery.ts's job.
import { randomBytes } from 'node:crypto';
import { eventDataSchemas } from '../../wire/assumptions.ts';
import { transaction, type Database, sql } from '../../storage/sqlite.ts';
import { newId } from './schema.ts';

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

export type DueDelivery = { id: string; attempts: number; url: string; secret: string; body: string };

/** Deliveries due now, oldest first, claimed (no due time) so the next tick does not send them again. */
export function claimDueDeliveries(db: Database, now: number, limit: number): DueDelivery[] {
  return transaction(db, () => {
    const due = sql(
      db,
      `SELECT d.id, d.attempts, w.url, w.secret, e.body FROM deliveries d
       JOIN webhook_endpoints w ON w.id = d.endpoint_id JOIN events e ON e.id = d.event_id
       WHERE d.status IN ('pending', 'retrying') AND d.next_attempt_at <= ? ORDER BY d.next_attempt_at LIMIT ?`,
    ).all(now, limit) as DueDelivery[];
    const claim = sql(db, 'UPDATE deliveries SET next_attempt_at = NULL WHERE id = ?');
    for (const row of due) claim.run(row.id);
    return due;
  });
}

/** What one attempt came to: delivered, to be retried at `retryAt`, or failed for good (`retryAt` null). */
export function recordAttempt(
  db: Database,
  now: number,
  id: string,
  attempt: {
    attempts: number;
    status: number | null;
    error: string | null;
    delivered: boolean;
    retryAt: number | null;
  },
): void {
  const state = attempt.delivered ? 'delivered' : attempt.retryAt === null ? 'failed' : 'retrying';
  sql(
    db,
    'UPDATE deliveries SET status = ?, attempts = ?, next_attempt_at = ?, last_status = ?, last_error = ?, updated_at = ? WHERE id = ?',
  ).run(state, attempt.attempts, attempt.delivered ? null : attempt.retryAt, attempt.status, attempt.error, now, id);
}

/** A delivery claimed when the service stopped has no due time: give it one again. */
export function reviveClaimedDeliveries(db: Database, now: number): void {
  sql(
    db,
    "UPDATE deliveries SET next_attempt_at = ? WHERE status IN ('pending', 'retrying') AND next_attempt_at IS NULL",
  ).run(now);
}
