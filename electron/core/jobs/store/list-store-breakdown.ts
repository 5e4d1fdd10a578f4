// The breakdown of a job's addresses to check, for the results screen: per mailbox provider (known by
// domain), the most used domains, and why the unknown ones are unknown. One pass over the list's addresses each, when results are shown.
import type { ScoreGroup } from '../../../common/list-schemas.ts';
import { sql, type Database } from '../../storage/sqlite.ts';
import { catchAllLearnedSql, freeMailboxSql } from './score-columns.ts';

const domainOfKey = "substr(key, instr(key, '@') + 1)";

/** Addresses to check per domain, the most used first. */
export function domainCounts(db: Database, limit: number): { domain: string; count: number }[] {
  return sql(
    db,
    `SELECT ${domainOfKey} AS domain, COUNT(*) AS count FROM addresses WHERE sendable = 1
     GROUP BY domain ORDER BY count DESC, domain LIMIT ?`,
  ).all(limit) as { domain: string; count: number }[];
}

/**
 * Addresses to check per provider: the one the service found from the mail hosts where it said (a
 * company domain on Google's mail is Google), else the one the domain names; the rest count as Other.
 */
export function providerCounts(
  db: Database,
  providers: Record<string, readonly string[]>,
): { provider: string; count: number }[] {
  const names = Object.keys(providers);
  const cases = names.map(() => 'WHEN domain IN (SELECT value FROM json_each(?)) THEN ?').join(' ');
  return sql(
    db,
    `SELECT CASE WHEN found IS NOT NULL THEN found ${cases} ELSE 'Other' END AS provider, COUNT(*) AS count
     FROM (SELECT ${domainOfKey} AS domain, provider AS found FROM address_verdicts WHERE sendable = 1)
     GROUP BY 1 ORDER BY count DESC, provider`,
  ).all(...names.flatMap((name) => [JSON.stringify(providers[name]), name])) as { provider: string; count: number }[];
}

/** Why the unknown addresses are unknown: addresses per reason, the most first (what a blocked sender left unknown, say). */
export function unknownReasonCounts(db: Database): { reason: string; count: number }[] {
  return sql(
    db,
    `SELECT COALESCE(reason, '') AS reason, COUNT(*) AS count FROM address_verdicts
     WHERE sendable = 1 AND result = 'unknown' GROUP BY 1 ORDER BY count DESC, reason`,
  ).all() as { reason: string; count: number }[];
}

/** Addresses by what their score and keeping are made of: a list has a few dozen such groups, not millions. */
export function scoreGroups(db: Database): ScoreGroup[] {
  const rows = sql(
    db,
    `SELECT COALESCE(result, 'unverified') AS result, reason, role, disposable, suggestion IS NOT NULL AS suggested,
       accepted, cached_at IS NOT NULL AS cached, ${freeMailboxSql} AS free,
       CASE WHEN provider IN ('Google', 'Microsoft') THEN provider END AS provider,
       earlier_valid_at IS NOT NULL AS valid_earlier, ${catchAllLearnedSql} AS learned, COUNT(*) AS count
     FROM address_verdicts WHERE sendable = 1 OR reason LIKE 'rule\\_%' ESCAPE '\\'
     GROUP BY 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11 ORDER BY count DESC`,
  ).all() as (Pick<ScoreGroup, 'result' | 'reason' | 'provider' | 'learned' | 'count'> & Record<string, number>)[];
  return rows.map((row) => ({
    result: row.result,
    reason: row.reason,
    role: row.role === 1,
    disposable: row.disposable === 1,
    suggested: row.suggested === 1,
    accepted: row.accepted === 1,
    cached: row.cached === 1,
    free: row.free === 1,
    provider: row.provider,
    validEarlier: row.valid_earlier === 1,
    learned: row.learned,
    count: row.count,
  }));
}
