// The service's finding about its own sending address: when mail servers of unrelated domains refuse the
// prober itself (a blocklist it is on, its address or its name), every live check from here is wasted
// until it goes out another way, as with a blocked port 25. Kept in `meta`, read and written in one
// transaction. A refusal is kept for a few hours, and goes when that domain's server talks to us again.
import type { SqlConnection } from '../../storage/sql-connection.ts';

export type SenderRefusal = {
  domain: string;
  host: string;
  /** The way out the conversation took: `direct` or a proxy's label (each has its own address). */
  egress: string;
  reply: string;
  at: number;
};

export type SenderFinding = { state: 'refused'; egress: string; refusals: SenderRefusal[] } | { state: 'not_refused' };

const name = 'sender_refusals';
/** A blocklisting is not lifted in minutes; a refusal older than this no longer counts. */
const senderRefusalKeptMs = 6 * 60 * 60_000;

async function refusals(db: SqlConnection): Promise<SenderRefusal[]> {
  const row = await db.get<{ value: string }>('SELECT value FROM meta WHERE name = ?', [name]);
  return row ? (JSON.parse(row.value) as SenderRefusal[]) : [];
}

async function save(db: SqlConnection, kept: SenderRefusal[]): Promise<void> {
  await db.run('INSERT INTO meta (name, value) VALUES (?, ?) ON CONFLICT (name) DO UPDATE SET value = excluded.value', [
    name,
    JSON.stringify(kept),
  ]);
}

/** A mail server refused us, not an address; one entry per domain and way out (the newest). */
export async function noteSenderRefused(db: SqlConnection, refusal: SenderRefusal): Promise<void> {
  await db.transaction(async (tx) => {
    const same = (seen: SenderRefusal) => seen.domain === refusal.domain && seen.egress === refusal.egress;
    const kept = (await refusals(tx)).filter((seen) => !same(seen) && seen.at > refusal.at - senderRefusalKeptMs);
    await save(tx, [...kept, refusal].slice(-50));
  });
}

/** The domain's server talked to us this way out: whatever it said before about us is gone. */
export async function noteSenderAccepted(db: SqlConnection, domain: string, egress: string): Promise<void> {
  await db.transaction(async (tx) => {
    const before = await refusals(tx);
    const kept = before.filter((seen) => !(seen.domain === domain && seen.egress === egress));
    if (kept.length !== before.length) await save(tx, kept);
  });
}

/**
 * Refused once `threshold` unrelated domains (distinct domains on distinct mail hosts) refused us the same
 * way out within the last hours; one domain refusing is that domain's policy, not a verdict on us.
 */
export async function senderFinding(db: SqlConnection, now: number, threshold: number): Promise<SenderFinding> {
  const recent = (await refusals(db)).filter((seen) => seen.at > now - senderRefusalKeptMs);
  for (const egress of new Set(recent.map((seen) => seen.egress))) {
    const mine = recent.filter((seen) => seen.egress === egress);
    const hosts = new Set(mine.map((seen) => seen.host)).size;
    const domains = new Set(mine.map((seen) => seen.domain)).size;
    if (hosts >= threshold && domains >= threshold) return { state: 'refused', egress, refusals: mine };
  }
  return { state: 'not_refused' };
}

/** A new HELO name, sender or way out: what servers said of the old one says nothing of the new. */
export async function forgetSenderRefusals(db: SqlConnection): Promise<void> {
  await db.run('DELETE FROM meta WHERE name = ?', [name]);
}
