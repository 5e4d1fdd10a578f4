// What the engine learned about each domain, kept with an expiry: where its mail goes (the DNS answer,
// for its TTL) and whether it accepts every address (catch-all, for a day by default).
import { sql, type Database } from '../../storage/sqlite.ts';
import type { MailRoute } from '../engine/mx-lookup.ts';

type Row = { route: string | null; route_expires_at: number; catch_all: number | null; catch_all_expires_at: number };

function rowOf(db: Database, domain: string): Row | undefined {
  return sql(
    db,
    'SELECT route, route_expires_at, catch_all, catch_all_expires_at FROM mail_domains WHERE domain = ?',
  ).get(domain) as Row | undefined;
}

export function cachedRoute(db: Database, domain: string, now: number): MailRoute | undefined {
  const row = rowOf(db, domain);
  return row?.route && row.route_expires_at > now ? (JSON.parse(row.route) as MailRoute) : undefined;
}

/** A DNS failure is not kept: the next probe asks again. */
export function storeRoute(db: Database, domain: string, route: MailRoute, now: number): void {
  if (route.kind === 'dns_failed') return;
  sql(
    db,
    `INSERT INTO mail_domains (domain, route, route_expires_at) VALUES (?, ?, ?)
     ON CONFLICT (domain) DO UPDATE SET route = excluded.route, route_expires_at = excluded.route_expires_at`,
  ).run(domain, JSON.stringify(route), now + route.ttlMs);
}

export function cachedCatchAll(db: Database, domain: string, now: number): boolean | undefined {
  const row = rowOf(db, domain);
  return row && row.catch_all !== null && row.catch_all_expires_at > now ? row.catch_all === 1 : undefined;
}

export function storeCatchAll(db: Database, domain: string, catchAll: boolean, expiresAt: number): void {
  sql(
    db,
    `INSERT INTO mail_domains (domain, catch_all, catch_all_expires_at) VALUES (?, ?, ?)
     ON CONFLICT (domain) DO UPDATE SET catch_all = excluded.catch_all, catch_all_expires_at = excluded.catch_all_expires_at`,
  ).run(domain, catchAll ? 1 : 0, expiresAt);
}
