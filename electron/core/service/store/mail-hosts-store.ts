// Each mail host's pacing budget (all of a big provider's hosts share one): probes are given time slots
// at the host's current rate, a host has at most so many connections open, and a 421 or a run of
// deferrals halves its rate, which then grows back a little with every good conversation (AIMD).
// All of it in the database, so a restart keeps the budgets a host was given and workers sharing a
// database share them. Open connections are counted per process: a gone process's stop counting.
import type { SqlConnection } from '../../storage/sql-connection.ts';
import { livingProcessesSql } from './service-processes-store.ts';

export type HostPacing = {
  perHostRate: number;
  perHostConcurrency: number;
  backoffMs: number;
};

type HostRow = { rate: number; next_slot_at: number; backoff_until: number; deferrals: number };

/** Slots are handed out at most this far ahead, so a connection is never held open long waiting for one. */
export const slotHorizonMs = 2000;
/** However often a host complains, it keeps at least this share of the configured rate. */
const minRateShare = 1 / 16;
/** This many deferrals in a row from one host count as "slow down", like a 421. */
const deferralBurst = 5;

async function hostRow(db: SqlConnection, key: string, pacing: HostPacing): Promise<HostRow> {
  await db.run('INSERT INTO mail_hosts (budget_key, rate) VALUES (?, ?) ON CONFLICT DO NOTHING', [
    key,
    pacing.perHostRate,
  ]);
  return (await db.get<HostRow>(
    'SELECT rate, next_slot_at, backoff_until, deferrals FROM mail_hosts WHERE budget_key = ?',
    [key],
  ))!;
}

/** `othersOpen`: connections to this budget already open (any process) when this one was given its place. */
export type Reservation = { opened: true; othersOpen: number } | { retryAt: number };

/** Opens a connection's place in the host's budget for process `owner`, or says when to ask again. */
export async function reserveHost(
  db: SqlConnection,
  key: string,
  owner: string,
  now: number,
  pacing: HostPacing,
): Promise<Reservation> {
  return db.transaction(async (tx): Promise<Reservation> => {
    const row = await hostRow(tx, key, pacing);
    const interval = 1000 / row.rate;
    const { open } = (await tx.get<{ open: number | null }>(
      `SELECT SUM(open) AS open FROM mail_host_connections WHERE budget_key = ? AND owner IN (${livingProcessesSql})`,
      [key],
    ))!;
    if ((open ?? 0) >= pacing.perHostConcurrency) return { retryAt: now + Math.max(interval, 100) };
    if (row.next_slot_at > now + slotHorizonMs) return { retryAt: row.next_slot_at - slotHorizonMs };
    await tx.run(
      `INSERT INTO mail_host_connections (budget_key, owner, open) VALUES (?, ?, 1)
       ON CONFLICT (budget_key, owner) DO UPDATE SET open = mail_host_connections.open + 1`,
      [key, owner],
    );
    return { opened: true, othersOpen: open ?? 0 };
  });
}

/**
 * The time the next probe on an open connection may go out: the host's next free slot, never in the
 * past (a slot is taken when it is about to be used, so a slow greeting cannot leave a backlog of slots
 * that would then go out in a burst). Undefined when the host's next slot is too far away to wait for.
 */
async function takeSlot(db: SqlConnection, key: string, now: number, pacing: HostPacing): Promise<number | undefined> {
  return db.transaction(async (tx) => {
    const row = await hostRow(tx, key, pacing);
    const at = Math.max(now, row.next_slot_at);
    if (at > now + slotHorizonMs) return undefined;
    await tx.run('UPDATE mail_hosts SET next_slot_at = ? WHERE budget_key = ?', [at + 1000 / row.rate, key]);
    return at;
  });
}

/**
 * A probe went out now, perhaps later than its slot (timers run late): the next slot is at least one
 * interval after it, so a late probe and an on-time one are never closer together than the rate allows.
 */
async function probeSent(db: SqlConnection, key: string, now: number): Promise<void> {
  await db.run(
    `UPDATE mail_hosts SET next_slot_at = CASE WHEN next_slot_at > ? + 1000.0 / rate THEN next_slot_at
     ELSE ? + 1000.0 / rate END WHERE budget_key = ?`,
    [now, now, key],
  );
}

/**
 * For one conversation: waits for the host's next slot and marks the probe sent; false when no slot comes
 * in time (the rest of the conversation's addresses wait for the next) or when the engine is stopping.
 */
export function slotWaiter(
  db: SqlConnection,
  key: string,
  pacing: HostPacing,
  now: () => number,
  stopping: () => boolean,
): () => Promise<boolean> {
  return async () => {
    if (stopping()) return false;
    const at = await takeSlot(db, key, now(), pacing);
    if (at === undefined) return false;
    const wait = at - now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    if (stopping()) return false;
    await probeSent(db, key, now());
    return true;
  };
}

export type ConversationEnd = 'ok' | 'busy' | 'deferred' | 'failed';

/**
 * A pace learned from the server's rate replies (rate-learning.ts): its rate, the next slot at `notBefore`
 * (whatever the slot the last probe left, which a guessed rate spaced), and no growth until `holdUntil`.
 */
export async function setHostPace(
  db: SqlConnection,
  key: string,
  pace: { rate: number; notBefore: number; holdUntil: number },
  pacing: HostPacing,
): Promise<void> {
  await db.transaction(async (tx) => {
    await hostRow(tx, key, pacing);
    await tx.run(
      `UPDATE mail_hosts SET rate = ?, next_slot_at = ?,
       backoff_until = CASE WHEN backoff_until > ? THEN backoff_until ELSE ? END WHERE budget_key = ?`,
      [pace.rate, pace.notBefore, pace.holdUntil, pace.holdUntil, key],
    );
  });
}

/** A connection of process `owner` closed: its place is free again, and the host's rate moves with how it went. */
export async function releaseHost(
  db: SqlConnection,
  key: string,
  owner: string,
  end: ConversationEnd,
  deferrals: number,
  now: number,
  pacing: HostPacing,
  /** The pace is learned from the server's rate replies (setHostPace): its rate is left as it is. */
  learned = false,
): Promise<void> {
  await db.transaction(async (tx) => {
    const row = await hostRow(tx, key, pacing);
    const floor = pacing.perHostRate * minRateShare;
    let { rate, next_slot_at: nextSlot, backoff_until: backoffUntil } = row;
    const runOfDeferrals = end === 'ok' ? 0 : row.deferrals + deferrals;
    // A learned pace is moved only by what the server's rate replies teach.
    if (!learned && (end === 'busy' || runOfDeferrals >= deferralBurst)) {
      // Multiplicative decrease, and a pause before the next probe.
      rate = Math.max(floor, rate / 2);
      backoffUntil = now + pacing.backoffMs;
      nextSlot = Math.max(nextSlot, now + Math.min(pacing.backoffMs, 60_000));
    } else if (!learned && end === 'ok' && now >= backoffUntil) {
      rate = Math.min(pacing.perHostRate, rate + pacing.perHostRate / 10);
    }
    await tx.run(
      'UPDATE mail_hosts SET rate = ?, next_slot_at = ?, backoff_until = ?, deferrals = ? WHERE budget_key = ?',
      [rate, nextSlot, backoffUntil, end === 'busy' || runOfDeferrals >= deferralBurst ? 0 : runOfDeferrals, key],
    );
    await tx.run(
      `UPDATE mail_host_connections SET open = CASE WHEN open > 0 THEN open - 1 ELSE 0 END
       WHERE budget_key = ? AND owner = ?`,
      [key, owner],
    );
  });
}

/** At start: rates above the configured one (it may have been lowered since) settle back to it. */
export async function capHostRates(db: SqlConnection, pacing: HostPacing): Promise<void> {
  await db.run('UPDATE mail_hosts SET rate = CASE WHEN rate < ? THEN rate ELSE ? END', [
    pacing.perHostRate,
    pacing.perHostRate,
  ]);
}

/** The connections gone processes had open stop counting (run after they are forgotten). */
export async function forgetGoneConnections(db: SqlConnection): Promise<void> {
  await db.run(`DELETE FROM mail_host_connections WHERE owner NOT IN (${livingProcessesSql})`);
}

export async function hostRate(db: SqlConnection, key: string): Promise<number | undefined> {
  return (await db.get<{ rate: number }>('SELECT rate FROM mail_hosts WHERE budget_key = ?', [key]))?.rate;
}

/**
 * Budgets of servers left alone for a day (no slot taken, no back-off running, no connection open) go:
 * the table holds the servers worked lately, and a server met again starts at the configured rate.
 * Connection counts at zero go too.
 */
export async function forgetIdleHosts(db: SqlConnection, now: number): Promise<number> {
  const dayAgo = now - 24 * 60 * 60_000;
  await db.run('DELETE FROM mail_host_connections WHERE open <= 0');
  const { changes } = await db.run(
    `DELETE FROM mail_hosts WHERE next_slot_at < ? AND backoff_until < ?
     AND budget_key NOT IN (SELECT budget_key FROM mail_host_connections)`,
    [dayAgo, now],
  );
  return changes;
}

/** The budgets' current pace (rate, and the next slot it may give), by budget key; a missing one is fresh. */
export async function hostPaces(
  db: SqlConnection,
  keys: readonly string[],
): Promise<Map<string, { rate: number; nextSlotAt: number }>> {
  const rows = await db.all<{ key: string; rate: number; next: number }>(
    `SELECT budget_key AS key, rate, next_slot_at AS next FROM mail_hosts WHERE budget_key IN (${db.dialect.jsonList})`,
    [JSON.stringify(keys)],
  );
  return new Map(rows.map((row) => [row.key, { rate: row.rate, nextSlotAt: row.next }]));
}
