// Catch-all counts shared with a team's service (wire/team-outcomes.ts): how many sends this folder's tools
// reported to each catch-all domain, and how many bounced, go to the service as counts (never who was sent
// to); every other folder's counts come back added up, and catch-all-evidence.ts adds them to this
// folder's own, so a catch-all domain is learned from the whole team's sends.
import type { ServiceClient } from '../client/service-client.ts';
import { checkDomain } from '../email/syntax.ts';
import { teamOutcomesPageLimit, type CatchAllCount } from '../wire/team-outcomes.ts';
import type { OutcomeStore } from './outcome-store.ts';
import { teamShareStore, type CatchAllCounts, type TeamCatchAllCounts } from './team-share-store.ts';

const toWire = (count: CatchAllCounts): CatchAllCount => ({ ...count, since: new Date(count.since).toISOString() });

/** This folder's counts that the service does not have as they are now; a domain with no sends left, at zero. */
function changedCounts(store: OutcomeStore, before: readonly CatchAllCounts[]): CatchAllCounts[] {
  const own = store.catchAllSends().map(({ domain, sent, bounced, since }) => ({ domain, sent, bounced, since }));
  const was = new Map(before.map((count) => [count.domain, count]));
  const now = new Set(own.map((count) => count.domain));
  return [
    ...own.filter((count) => {
      const last = was.get(count.domain);
      return !last || last.sent !== count.sent || last.bounced !== count.bounced || last.since !== count.since;
    }),
    ...before.filter((count) => !now.has(count.domain)).map((count) => ({ ...count, sent: 0, bounced: 0 })),
  ];
}

/**
 * Sends this folder's changed counts (a page at a time, each marked once the service has it), then reads
 * every other folder's in place of the last read. Answers how many were sent, and how many catch-all
 * domains the team's counts now name.
 */
export async function shareCatchAllCounts(
  store: OutcomeStore,
  client: ServiceClient,
  /** This folder's origin on the service, and the service's teammates' source here (its counts are kept by it). */
  origin: string,
  service: string,
  signal?: AbortSignal,
): Promise<{ sent: number; domains: number }> {
  const shares = teamShareStore(store.database);
  const changed = changedCounts(store, shares.catchAllShared(service));
  for (let at = 0; at < changed.length; at += teamOutcomesPageLimit) {
    const page = changed.slice(at, at + teamOutcomesPageLimit);
    await client.shareCatchAll(origin, page.map(toWire), signal ? { signal } : {});
    shares.markCatchAllShared(service, page);
  }

  const read = shares.teamCatchAllRead(service);
  read.begin();
  let after = '';
  let domains = 0;
  for (;;) {
    const page = await client.getTeamCatchAll(origin, after, signal ? { signal } : {});
    const counts: TeamCatchAllCounts[] = page.data
      .map((row) => ({ ...row, domain: row.domain.toLowerCase(), since: Date.parse(row.since) }))
      .filter((row) => checkDomain(row.domain).ok && row.sent > 0 && row.bounced >= 0 && row.bounced <= row.sent);
    read.page(counts);
    domains += counts.length;
    if (!page.has_more || page.next_after === after) break;
    after = page.next_after;
  }
  read.finish();
  return { sent: changed.length, domains };
}
