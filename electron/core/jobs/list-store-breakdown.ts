// The breakdown of a job's addresses to check, for the results screen: per mailbox provider (known by
// domain) and the most used domains. One pass over the list's addresses each, when results are shown.
import type { Database } from '../storage/sqlite.ts';
import { sql } from '../storage/sqlite.ts';

const domainOfKey = "substr(key, instr(key, '@') + 1)";

/** Addresses to check per domain, the most used first. */
export function domainCounts(db: Database, limit: number): { domain: string; count: number }[] {
  return sql(
    db,
    `SELECT ${domainOfKey} AS domain, COUNT(*) AS count FROM addresses WHERE sendable = 1
     GROUP BY domain ORDER BY count DESC, domain LIMIT ?`,
  ).all(limit) as { domain: string; count: number }[];
}

/** Addresses to check per provider, known by their domains; the rest count as Other. */
export function providerCounts(
  db: Database,
  providers: Record<string, readonly string[]>,
): { provider: string; count: number }[] {
  const names = Object.keys(providers);
  const cases = names.map((_, index) => `WHEN domain IN (SELECT value FROM json_each(?)) THEN ${index}`).join(' ');
  const rows = sql(
    db,
    `SELECT CASE ${cases} ELSE -1 END AS provider, COUNT(*) AS count
     FROM (SELECT ${domainOfKey} AS domain FROM addresses WHERE sendable = 1) GROUP BY provider ORDER BY count DESC`,
  ).all(...names.map((name) => JSON.stringify(providers[name]))) as { provider: number; count: number }[];
  return rows.map((row) => ({ provider: names[row.provider] ?? 'Other', count: row.count }));
}
