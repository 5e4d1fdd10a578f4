// The service's finding about outbound port 25: open (a mail server has spoken to us), blocked (several
// unrelated mail hosts could not be reached while DNS answered), or not known yet. Kept in `meta`.
import { sql, type Database } from '../../storage/sqlite.ts';

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

export function port25Finding(db: Database): Port25Finding {
  const row = sql(db, 'SELECT value FROM meta WHERE name = ?').get(name) as { value: string } | undefined;
  return row ? (JSON.parse(row.value) as Port25Finding) : unchecked;
}

function save(db: Database, finding: Port25Finding): Port25Finding {
  sql(db, 'INSERT INTO meta (name, value) VALUES (?, ?) ON CONFLICT (name) DO UPDATE SET value = excluded.value').run(
    name,
    JSON.stringify(finding),
  );
  return finding;
}

/** A mail server spoke: port 25 is open. */
export function notePort25Open(db: Database, now: number): void {
  if (port25Finding(db).state !== 'open') save(db, { state: 'open', at: now, failures: [] });
}

/**
 * A mail host could not be reached. Once `threshold` distinct hosts of distinct domains have failed and
 * none has spoken, port 25 counts as blocked; a blocked finding is rechecked after `recheckMs`.
 */
export function notePort25Failure(
  db: Database,
  failure: { host: string; domain: string },
  now: number,
  threshold: number,
  recheckMs: number,
): Port25Finding {
  const finding = port25Finding(db);
  if (finding.state === 'open') return finding;
  const failures = [...finding.failures.filter((seen) => seen.host !== failure.host), failure].slice(-20);
  const hosts = new Set(failures.map((seen) => seen.host)).size;
  const domains = new Set(failures.map((seen) => seen.domain)).size;
  const blocked = hosts >= threshold && domains >= threshold;
  return save(db, {
    state: blocked ? 'blocked' : finding.state,
    at: now,
    failures,
    ...(blocked ? { recheckAt: now + recheckMs } : {}),
  });
}

/** The finding of a check made on purpose (at `sift service` start). */
export function recordPort25Check(db: Database, state: 'open' | 'blocked', now: number, recheckMs: number): void {
  save(db, { state, at: now, failures: [], ...(state === 'blocked' ? { recheckAt: now + recheckMs } : {}) });
}

/** A blocked service lets one domain try for real when the recheck is due, then waits again. */
export function takePort25Recheck(db: Database, now: number, recheckMs: number): boolean {
  const finding = port25Finding(db);
  if (finding.state !== 'blocked' || (finding.recheckAt ?? 0) > now) return false;
  save(db, { ...finding, recheckAt: now + recheckMs });
  return true;
}
