// Sharing outcomes with a team's service (Sift's own, wire/team-outcomes.ts): what this Sift read back
// (and undid, and forgot) is sent to the service, and what teammates' Sifts sent is read from it and acted
// on here as any source's bounces are (a hard bounce onto the do-not-mail list and into the verdict
// cache). Only a service that names `outcomes` among its features is asked. Each step is resumable: an
// outcome is marked sent only once the service has it, and the read goes on from the last page kept.
import type { ServiceClient } from '../client/service-client.ts';
import { withoutControls } from '../../common/terminal-text.ts';
import { precheckAddress } from '../email/address-precheck.ts';
import {
  teamOutcomesFeature,
  teamOutcomesPageLimit,
  teamOutcomeTextLimits as most,
  type TeamOutcome,
} from '../wire/team-outcomes.ts';
import type { OutcomeStore } from './outcome-store.ts';
import { undoOutcome, withRecorder } from './record-outcomes.ts';
import { shareCatchAllCounts } from './team-catch-all.ts';
import { teamShareStore, type UnsharedOutcome } from './team-share-store.ts';

type TeamShareResult =
  | { offered: false }
  | {
      offered: true;
      /** What this Sift sent: outcomes (new, or undone since), and sources forgotten. */
      sent: number;
      forgotten: number;
      /** What teammates' Sifts had sent: new outcomes, undos, and outcomes let go with a forgotten source. */
      received: number;
      undone: number;
      letGo: number;
      /** New on the do-not-mail list. */
      suppressed: number;
      /** Teammates' outcomes whose address is none: left out. */
      skipped: number;
      /** The local source their outcomes are kept under. */
      source: string;
      /** Catch-all domains: this folder's counts sent (changed since last time), and the team's now known. */
      catchAllSent: number;
      catchAllDomains: number;
    };

/** How a person knows the team's service: its host. */
export const serviceHost = (client: Pick<ServiceClient, 'serviceUrl'>) => new URL(client.serviceUrl).host;

/** The local source a service's teammates' outcomes are kept under, one per service. */
export const teamSourceName = (client: Pick<ServiceClient, 'serviceUrl'>) => `team at ${serviceHost(client)}`;

const clip = (text: string | null, most: number) => (text === null ? null : text.slice(0, most));
const iso = (time: number) => new Date(time).toISOString();

function toWire(outcome: UnsharedOutcome): TeamOutcome {
  return {
    id: outcome.teamId,
    source: outcome.source,
    email: outcome.address,
    kind: outcome.kind,
    reason: outcome.reason.slice(0, most.reason),
    status: clip(outcome.status, most.status),
    words: clip(outcome.words, most.words),
    at: iso(outcome.at),
    undone_at: outcome.undoneAt === null ? null : iso(outcome.undoneAt),
  };
}

export async function shareWithTeam(
  dataDir: string,
  store: OutcomeStore,
  client: ServiceClient,
  options: { signal?: AbortSignal; onProgress?: (step: { sent: number; received: number }) => void } = {},
): Promise<TeamShareResult> {
  const { signal } = options;
  const account = await client.getAccount({ signal });
  if (!(account.features ?? []).includes(teamOutcomesFeature)) return { offered: false };
  const shares = teamShareStore(store.database);
  const origin = shares.origin();
  const mine = (teamId: string) => teamId.startsWith(`${origin}.`);
  const result = {
    offered: true as const,
    sent: 0,
    forgotten: 0,
    received: 0,
    undone: 0,
    letGo: 0,
    suppressed: 0,
    skipped: 0,
  };
  const progress = () => options.onProgress?.({ sent: result.sent, received: result.received });

  // Forgettings first: a source forgotten and read again must not be sent before its forgetting.
  for (const teamId of shares.pendingForgets()) {
    await client.forgetTeamSource(teamId, { signal });
    shares.forgetTold(teamId);
    result.forgotten += 1;
  }
  shares.nameSources(origin);
  for (
    let page = shares.unshared(teamOutcomesPageLimit);
    page.length > 0;
    page = shares.unshared(teamOutcomesPageLimit)
  ) {
    await client.shareOutcomes(page.map(toWire), { signal });
    shares.markShared(page);
    result.sent += page.length;
    progress();
  }

  const source = store.ensureSource(teamSourceName(client), 'team');
  await withRecorder(dataDir, store, async (recorder) => {
    let after = source.cursor ?? '';
    for (;;) {
      const page = await client.getTeamOutcomes(after, { signal });
      // Undos and forgettings before the page's new outcomes and its cursor are kept: each is idempotent, so
      // a stop between them is made good by reading the page again.
      for (const row of page.data.filter((each) => !each.forgotten && each.undone_at)) {
        const local = shares.localOf(row.id);
        if (local && local.undoneAt === null && undoOutcome(dataDir, store, local.id, true)) result.undone += 1;
      }
      const gone = page.data.filter((row) => row.forgotten && !mine(row.id)).map((row) => row.id);
      const { removed, hard } = shares.removeRemote(gone);
      recorder.forget(hard);
      result.letGo += removed;
      const fresh = page.data.filter((row) => !row.forgotten && !row.undone_at && !mine(row.id));
      const outcomes = fresh.flatMap((row) => {
        // What another Sift sent is taken as a file's rows are: an address only if it is one, words without controls.
        const check = precheckAddress(row.email);
        if (!check.ok) {
          result.skipped += 1;
          return [];
        }
        return [
          {
            address: check.key,
            kind: row.kind,
            reason: withoutControls(row.reason),
            ...(row.status ? { status: withoutControls(row.status) } : {}),
            ...(row.words ? { words: withoutControls(row.words) } : {}),
            at: Date.parse(row.at),
            remote: row.id,
          },
        ];
      });
      const recorded = recorder.record(source, { outcomes, cursor: page.next_after });
      result.received += recorded.added;
      result.suppressed += recorded.suppressed;
      progress();
      after = page.next_after;
      if (!page.has_more) break;
    }
  });
  // Kept by the teammates' source's name, so forgetting that source lets the team's counts go too.
  const catchAll = await shareCatchAllCounts(store, client, origin, source.name, signal);
  return { ...result, source: source.name, catchAllSent: catchAll.sent, catchAllDomains: catchAll.domains };
}

/**
 * Shares again, once this data folder has shared with that service (asked for once: a person's bounces
 * never leave for a service unasked); undefined where it never did.
 */
export async function shareAgainIfShared(
  dataDir: string,
  store: OutcomeStore,
  client: ServiceClient,
  options: { signal?: AbortSignal } = {},
): Promise<TeamShareResult | undefined> {
  if (!store.source(teamSourceName(client))) return undefined;
  return shareWithTeam(dataDir, store, client, options);
}
