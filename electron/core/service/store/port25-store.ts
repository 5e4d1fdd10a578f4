// The service's finding about outbound port 25: open (a mail server has spoken to us), blocked (several
// unrelated mail hosts could not be reached while DNS answered), or not known yet. Kept in `meta`. A
// change reads the finding and writes it back in one transaction, so concurrent findings never overwrite each other.
import type { SqlConnection } from '../../storage/sql-connection.ts';

export type Port25State = 'open' | 'blocked' | 'unchecked';
export type Port25Finding = {
  state: Port25State;
  at: number | null;
  /** Distinct mail hosts (and the domains they serve) that could not be reached since the last success. */
  failures: { host: string; domain: string }[];
  /** When a blocked service tries one real connection again, to notice that the block has gone. */
  recheckAt?: number;
};

const name = 'port25';
const unchecked: Port25Finding = { state: 'unchecked', at: null, failures: [] };

export async function port25Finding(db: SqlConnection): Promise<Port25Finding> {
  const row = await db.get<{ value: string }>('SELECT value FROM meta WHERE name = ?', [name]);
  return row ? (JSON.parse(row.value) as Port25Finding) : unchecked;
}

async function save(db: SqlConnection, finding: Port25Finding): Promise<Port25Finding> {
  await db.run('INSERT INTO meta (name, value) VALUES (?, ?) ON CONFLICT (name) DO UPDATE SET value = excluded.value', [
    name,
    JSON.stringify(finding),
  ]);
  return finding;
}

/** A mail server spoke: port 25 is open. */
export async function notePort25Open(db: SqlConnection, now: number): Promise<void> {
  await db.transaction(async (tx) => {
    if ((await port25Finding(tx)).state !== 'open') await save(tx, { state: 'open', at: now, failures: [] });
  });
}

/**
 * A mail host could not be reached. Once `threshold` distinct hosts of distinct domains have failed and
 * none has spoken, port 25 counts as blocked; a blocked finding is rechecked after `recheckMs`.
 */
export async function notePort25Failure(
  db: SqlConnection,
  failure: { host: string; domain: string },
  now: number,
  threshold: number,
  recheckMs: number,
): Promise<Port25Finding> {
  return db.transaction(async (tx) => {
    const finding = await port25Finding(tx);
    if (finding.state === 'open') return finding;
    const failures = [...finding.failures.filter((seen) => seen.host !== failure.host), failure].slice(-20);
    const hosts = new Set(failures.map((seen) => seen.host)).size;
    const domains = new Set(failures.map((seen) => seen.domain)).size;
    const blocked = hosts >= threshold && domains >= threshold;
    return save(tx, {
      state: blocked ? 'blocked' : finding.state,
      at: now,
      failures,
      ...(blocked ? { recheckAt: now + recheckMs } : {}),
    });
  });
}

/** The finding of a check made on purpose (at `sift service` start). */
export async function recordPort25Check(
  db: SqlConnection,
  state: 'open' | 'blocked',
  now: number,
  recheckMs: number,
): Promise<void> {
  await save(db, { state, at: now, failures: [], ...(state === 'blocked' ? { recheckAt: now + recheckMs } : {}) });
}

/** A blocked service lets one domain try for real when the recheck is due, then waits again. */
export async function takePort25Recheck(db: SqlConnection, now: number, recheckMs: number): Promise<boolean> {
  return db.transaction(async (tx) => {
    const finding = await port25Finding(tx);
    if (finding.state !== 'blocked' || (finding.recheckAt ?? 0) > now) return false;
    await save(tx, { ...finding, recheckAt: now + recheckMs });
    return true;
  });
}

/** The way out changed (a proxy added or removed): what was found the old way says nothing any more. */
export async function forgetPort25Finding(db: SqlConnection): Promise<void> {
  await db.run('DELETE FROM meta WHERE name = ?', [name]);
}
