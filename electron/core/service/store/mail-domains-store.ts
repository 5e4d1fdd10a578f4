// What the engine learned about each domain, kept with an expiry: where its mail goes (the DNS answer,
// for its TTL) and whether it accepts every address (catch-all, for a day by default).
import type { SqlConnection } from '../../storage/sql-connection.ts';
import type { MailRoute } from '../engines/live/mx-lookup.ts';

type Row = { route: string | null; route_expires_at: number; catch_all: number | null; catch_all_expires_at: number };

function rowOf(db: SqlConnection, domain: string): Promise<Row | undefined> {
  return db.get<Row>(
    'SELECT route, route_expires_at, catch_all, catch_all_expires_at FROM mail_domains WHERE domain = ?',
    [domain],
  );
}

export async function cachedRoute(db: SqlConnection, domain: string, now: number): Promise<MailRoute | undefined> {
  const row = await rowOf(db, domain);
  return row?.route && row.route_expires_at > now ? (JSON.parse(row.route) as MailRoute) : undefined;
}

/** A DNS failure is not kept: the next probe asks again. */
export async function storeRoute(db: SqlConnection, domain: string, route: MailRoute, now: number): Promise<void> {
  if (route.kind === 'dns_failed') return;
  await db.run(
    `INSERT INTO mail_domains (domain, route, route_expires_at) VALUES (?, ?, ?)
     ON CONFLICT (domain) DO UPDATE SET route = excluded.route, route_expires_at = excluded.route_expires_at`,
    [domain, JSON.stringify(route), now + route.ttlMs],
  );
}

export async function cachedCatchAll(db: SqlConnection, domain: string, now: number): Promise<boolean | undefined> {
  const row = await rowOf(db, domain);
  return row && row.catch_all !== null && row.catch_all_expires_at > now ? row.catch_all === 1 : undefined;
}

export async function storeCatchAll(
  db: SqlConnection,
  domain: string,
  catchAll: boolean,
  expiresAt: number,
): Promise<void> {
  await db.run(
    `INSERT INTO mail_domains (domain, catch_all, catch_all_expires_at) VALUES (?, ?, ?)
     ON CONFLICT (domain) DO UPDATE SET catch_all = excluded.catch_all, catch_all_expires_at = excluded.catch_all_expires_at`,
    [domain, catchAll ? 1 : 0, expiresAt],
  );
}

/** What was learned about a domain and has expired in full (route and catch-all) goes. */
export async function forgetExpiredDomains(db: SqlConnection, now: number): Promise<number> {
  return (await db.run('DELETE FROM mail_domains WHERE route_expires_at < ? AND catch_all_expires_at < ?', [now, now]))
    .changes;
}

/** The routes known now for these domains (the DNS answers kept), by domain. */
export async function cachedRoutes(
  db: SqlConnection,
  domains: readonly string[],
  now: number,
): Promise<Map<string, MailRoute>> {
  const rows = await db.all<{ domain: string; route: string }>(
    `SELECT domain, route FROM mail_domains WHERE route IS NOT NULL AND route_expires_at > ?
     AND domain IN (${db.dialect.jsonList})`,
    [now, JSON.stringify(domains)],
  );
  return new Map(rows.map((row) => [row.domain, JSON.parse(row.route) as MailRoute]));
}

/** Which of these domains have a catch-all finding in force (their next conversation skips that probe). */
export async function knownCatchAlls(db: SqlConnection, domains: readonly string[], now: number): Promise<Set<string>> {
  const rows = await db.all<{ domain: string }>(
    `SELECT domain FROM mail_domains WHERE catch_all IS NOT NULL AND catch_all_expires_at > ?
     AND domain IN (${db.dialect.jsonList})`,
    [now, JSON.stringify(domains)],
  );
  return new Set(rows.map((row) => row.domain));
}
