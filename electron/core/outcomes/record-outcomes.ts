// What Sift does with bounces as they are read, for every source alike: each is kept with what Sift had
// said of the address before (for the accuracy ledger), and a hard bounce goes on the do-not-mail list
// (reason "bounced", with the server's words) and into the verdict cache as `invalid`, so the next list
// or sync keeps the address out without paying for it. The do-not-mail list and the cache are written
// before the outcomes are kept: both writes are idempotent, so a read stopped between them and read
// again loses nothing and doubles nothing. A recorder holds the databases open for a whole read.
import { bounceCache, bounceKeptAt, type CheckedVerdict } from '../cache/index.ts';
import { openSuppressionStore, type SuppressionStore } from '../suppression/index.ts';
import type { NewMessage, NewOutcome, OutcomeSource, OutcomeStore } from './outcome-store.ts';
import { teamShareStore } from './team-share-store.ts';

/**
 * Soft bounces on this many different days make an address a hard one. Mailchimp's rule: "We'll allow seven
 * soft bounces for an email address with no subscriber activity and up to 15 soft bounces for subscribers
 * with previous subscriber activity before converting a soft bounce into a hard bounce"
 * (https://mailchimp.com/help/soft-vs-hard-bounces/). Sift sees no activity, so it takes the seven; days,
 * not messages, so one campaign's retries over its three days count at most three.
 */
const softDaysToHard = 7;

/** A bounce as a source gives it: the address as lists key it, and what happened. */
export type ReadOutcome = Omit<NewOutcome, 'key' | 'checked' | 'replaced'>;

type RecordedPage = { added: number; hard: number; soft: number; refused: number; suppressed: number };

type OutcomePage = {
  messages?: readonly (Omit<NewMessage, 'outcomes'> & { outcomes: ReadOutcome[] })[];
  outcomes?: readonly ReadOutcome[];
  cursor?: string;
};

const dayOf = (at: number) => new Date(at).toISOString().slice(0, 10);

/** What the do-not-mail list says of where a bounce was read. */
const sourceWords = (source: Pick<OutcomeSource, 'name' | 'kind'>) =>
  source.kind === 'team'
    ? `${source.name} (a teammate's read)`
    : `${source.name} (${source.kind === 'imap' ? 'bounce mailbox' : source.kind})`;

export type OutcomeRecorder = ReturnType<typeof outcomeRecorder>;

/** The do-not-mail list and the verdict cache, open for one read of `store`'s sources. */
export function outcomeRecorder(dataDir: string, store: OutcomeStore) {
  const cache = bounceCache(dataDir);
  let suppression: SuppressionStore | null = null;
  /** What Sift had said of an address before: the cache's verdict, else what an earlier outcome kept. */
  const before = (checked: Map<string, CheckedVerdict>, key: string) => checked.get(key) ?? store.earlierCheck(key);
  return {
    record(source: OutcomeSource, page: OutcomePage): RecordedPage {
      const all = [...(page.messages ?? []).flatMap((message) => message.outcomes), ...(page.outcomes ?? [])];
      const keys = new Map(all.map((outcome) => [outcome.address, cache.keyOf(outcome.address)]));
      // Sift's verdicts before this page's bounces are written over them.
      const checked = cache.verdictsOf([...new Set(keys.values())]);
      const toHard = hardOnes(store, all);
      const enrich = (outcome: ReadOutcome): NewOutcome => {
        const key = keys.get(outcome.address)!;
        const earlier = before(checked, key);
        // The bounce takes the place of Sift's verdict in the cache; the ledger counts it back in.
        const replaced =
          toHard.has(outcome.address) && checked.has(key) && bounceKeptAt(outcome.at) >= checked.get(key)!.checkedAt;
        return { ...outcome, key, ...(earlier ? { checked: earlier } : {}), ...(replaced ? { replaced } : {}) };
      };
      suppression ??= openSuppressionStore(dataDir);
      const suppressed = suppression.add(
        [...toHard.values()].map((outcome) => ({
          kind: 'address' as const,
          value: outcome.address,
          reason: 'bounced',
          detail: [outcome.status, outcome.words].filter(Boolean).join(' ') || outcome.reason,
        })),
        sourceWords(source),
      );
      const messages = (page.messages ?? []).map((message) => ({ ...message, outcomes: message.outcomes.map(enrich) }));
      const outcomes = (page.outcomes ?? []).map(enrich);
      cache.remember([...toHard.values()].map((outcome) => ({ key: keys.get(outcome.address)!, at: outcome.at })));
      const added = store.record(source.id, {
        messages,
        outcomes,
        ...(page.cursor !== undefined ? { cursor: page.cursor } : {}),
      });
      const count = (kind: string) => added.filter((outcome) => outcome.kind === kind).length;
      return { added: added.length, hard: count('hard'), soft: count('soft'), refused: count('refused'), suppressed };
    },
    /** Keeps sends a tool reported, with Sift's live verdict of each address then; answers how many were new. */
    sends(sends: readonly { address: string; at: number }[]): number {
      if (sends.length === 0) return 0;
      const keyed = sends.map((send) => ({
        key: cache.keyOf(send.address),
        domain: send.address.slice(send.address.lastIndexOf('@') + 1).toLowerCase(),
        at: send.at,
      }));
      const checked = cache.verdictsOf(keyed.map((send) => send.key));
      return store.recordSends(
        keyed.map((send) => {
          // A bounce read first may have taken the verdict's place in the cache: the outcome kept it.
          const earlier = before(checked, send.key);
          return { ...send, ...(earlier ? { checked: earlier } : {}) };
        }),
      );
    },
    /** Takes addresses' bounces out of the do-not-mail list (only entries a bounce made) and the cache. */
    forget(outcomes: readonly { address: string; key: string }[]): number {
      if (outcomes.length === 0) return 0;
      suppression ??= openSuppressionStore(dataDir);
      const removed = suppression.removeBounced(outcomes.map((outcome) => outcome.address));
      cache.forget(outcomes.map((outcome) => outcome.key));
      return removed;
    },
    close() {
      cache.close();
      suppression?.close();
    },
  };
}

/** The page's addresses that count as hard: a hard bounce, or soft ones on `softDaysToHard` days. */
function hardOnes(store: OutcomeStore, all: readonly ReadOutcome[]): Map<string, ReadOutcome> {
  const softDays = new Map<string, Set<string>>();
  for (const outcome of all.filter((each) => each.kind === 'soft'))
    (softDays.get(outcome.address) ?? softDays.set(outcome.address, new Set()).get(outcome.address)!).add(
      dayOf(outcome.at),
    );
  const toHard = new Map<string, ReadOutcome>();
  for (const outcome of all) {
    if (outcome.kind === 'hard') toHard.set(outcome.address, outcome);
    else if (outcome.kind === 'soft' && !toHard.has(outcome.address)) {
      const days = new Set([...softDays.get(outcome.address)!, ...store.softDays(outcome.address)]).size;
      if (days >= softDaysToHard)
        toHard.set(outcome.address, {
          ...outcome,
          words: `soft-bounced on ${days} days; last: ${outcome.words ?? outcome.reason}`,
        });
    }
  }
  return toHard;
}

/** Runs `use` with a recorder for `store`, closed after. */
export async function withRecorder<T>(
  dataDir: string,
  store: OutcomeStore,
  use: (recorder: OutcomeRecorder) => T | Promise<T>,
): Promise<T> {
  const recorder = outcomeRecorder(dataDir, store);
  try {
    return await use(recorder);
  } finally {
    recorder.close();
  }
}

/**
 * Marks an outcome as wrong (a person read its message and disagrees). A hard bounce no other bounce
 * stands behind leaves the do-not-mail list (the entry a bounce made, never one of the person's) and the
 * verdict cache, so the address is checked again next time. Answers the outcome, or undefined.
 */
export function undoOutcome(dataDir: string, store: OutcomeStore, id: number, fromTeam = false) {
  const outcome = store.outcome(id);
  if (!outcome || !store.undo(id, Date.now(), fromTeam)) return undefined;
  if (outcome.kind === 'hard' && !store.hardElsewhere(outcome.address, id)) forgetBounced(dataDir, store, [outcome]);
  return outcome;
}

/** Takes addresses' bounces out of the do-not-mail list and the verdict cache. */
function forgetBounced(
  dataDir: string,
  store: OutcomeStore,
  outcomes: readonly { address: string; key: string }[],
): number {
  const recorder = outcomeRecorder(dataDir, store);
  try {
    return recorder.forget(outcomes);
  } finally {
    recorder.close();
  }
}

/**
 * Forgets every outcome read from the source named `name`, and the do-not-mail entries its bounces made;
 * undefined when there is no such source.
 */
export function forgetSource(
  dataDir: string,
  store: OutcomeStore,
  name: string,
): { outcomes: number; unsuppressed: number } | undefined {
  const source = store.source(name);
  if (!source) return undefined;
  const { outcomes, hard } = store.removeSource(name);
  // A team's source goes with its catch-all counts (until the next sharing reads both again).
  if (source.kind === 'team') teamShareStore(store.database).forgetTeamCatchAll(name);
  return { outcomes, unsuppressed: forgetBounced(dataDir, store, hard) };
}
