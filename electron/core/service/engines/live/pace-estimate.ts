// How long a live batch has left at a polite pace. Politeness bounds the engine: each mail server (each
// budget: a server address, or a big provider as a whole, per way out) is asked at most its rate, which
// halves after a 421 and grows back with good conversations, and at most `concurrency` conversations run
// at once. So the time left is the slowest budget the batch has work at (all the work queued there,
// whichever batch it is from, at that budget's current rate), or the whole queue shared out over the
// connections, whichever is longer. Said as an estimate; it follows the pace as the pace changes.
import type { SqlConnection } from '../../../storage/sql-connection.ts';
import { cachedRoutes, knownCatchAlls } from '../../store/mail-domains-store.ts';
import { hostPaces, slotHorizonMs } from '../../store/mail-hosts-store.ts';
import { queuedLoads, type DomainLoad } from '../../store/probe-queue-store.ts';
import { budgetKeyOf, providerOfMailHost } from './mail-hosts.ts';
import type { PaceLearning } from './rate-learning.ts';
import type { SmtpSettings } from './smtp-settings.ts';

export type PaceEstimate = {
  secondsLeft: number;
  /** Where most of the time goes: the budget that finishes last, and this batch's addresses there. */
  largest?: { name: string; pending: number };
  /**
   * That budget's pace is still being learned from its rate replies: its window probed for (the seconds
   * stand on nothing yet), or found and being confirmed (the seconds hold if the window was measured whole).
   */
  learning?: PaceLearning;
};

/** A budget as the estimate sees it: its key, what a person calls it, its pace now, and whether it is learned. */
export type BudgetPace = { key: string; name: string; rate: number; nextSlotAt: number; learning?: PaceLearning };

/** Pure: the estimate from each domain's load and the budget its mail server spends. */
export function estimateFromLoads(
  loads: readonly (DomainLoad & { extraProbes: number })[],
  budgetOf: (domain: string) => BudgetPace,
  concurrency: number,
  now: number,
): PaceEstimate | undefined {
  const budgets = new Map<string, { pace: BudgetPace; probes: number; mine: number; waitUntil: number }>();
  for (const load of loads) {
    const pace = budgetOf(load.domain);
    const budget = budgets.get(pace.key) ?? { pace, probes: 0, mine: 0, waitUntil: 0 };
    budget.probes += load.pending + load.extraProbes;
    budget.mine += load.mine;
    budget.waitUntil = Math.max(budget.waitUntil, load.latestAt);
    budgets.set(pace.key, budget);
  }
  let slowest: { seconds: number; name: string; pending: number; learning: PaceLearning | undefined } | undefined;
  let allSeconds = 0;
  for (const { pace, probes, mine, waitUntil } of budgets.values()) {
    // Slots are handed out at most slotHorizonMs ahead, to probes under way (waiting for their slot) whose
    // addresses are still queued: the next free slot is then that many intervals past the first of them.
    // A next slot further off than the horizon and one interval is a pause (a back-off, a learned window).
    const gap = Math.max(0, pace.nextSlotAt - now) / 1000;
    const interval = 1 / pace.rate;
    // N probes at a rate take N - 1 intervals from the first slot.
    const work = Math.max(0, probes - 1) * interval;
    const pause = gap * 1000 > slotHorizonMs + interval * 1000;
    const handedOut = pause ? 0 : Math.min(probes, Math.floor(gap / interval));
    const paced = Math.max(0, gap - handedOut * interval) + work;
    const seconds = Math.max(paced, (waitUntil - now) / 1000);
    allSeconds += seconds;
    if (mine > 0 && (!slowest || seconds > slowest.seconds))
      slowest = { seconds, name: pace.name, pending: mine, learning: pace.learning };
  }
  if (!slowest) return undefined;
  const secondsLeft = Math.ceil(Math.max(slowest.seconds, allSeconds / concurrency));
  return {
    secondsLeft,
    largest: { name: slowest.name, pending: slowest.pending },
    ...(slowest.learning ? { learning: slowest.learning } : {}),
  };
}

/**
 * The estimate for the batch whose rows carry `rowKey`, from the queue, the routes DNS gave and each
 * budget's pace; `egressOf` says which way out a domain's conversations take (its proxy, or direct).
 */
export async function estimatePace(
  db: SqlConnection,
  rowKey: number,
  settings: SmtpSettings,
  egressOf: (domain: string) => string,
  now: number,
  /** Addresses at a domain that conversations under way have answered, still queued until they end. */
  answered: (domain: string) => number = () => 0,
  /** How far a budget's pace is still being learned (rate-learning.ts), if at all. */
  learningOf: (key: string) => PaceLearning | undefined = () => undefined,
): Promise<PaceEstimate | undefined> {
  const loads = (await queuedLoads(db, rowKey)).map((load) => ({
    ...load,
    pending: Math.max(0, load.pending - answered(load.domain)),
  }));
  if (!loads.some((load) => load.mine > 0)) return undefined;
  const domains = loads.map((load) => load.domain);
  const [routes, catchAllKnown] = await Promise.all([cachedRoutes(db, domains, now), knownCatchAlls(db, domains, now)]);
  const budgetFor = new Map<string, { key: string; name: string }>();
  for (const domain of domains) {
    const route = routes.get(domain);
    const host = route?.kind === 'hosts' ? route.hosts[0] : undefined;
    if (!host) {
      // Not looked up yet: its own server, as far as anyone knows.
      budgetFor.set(domain, { key: `domain:${domain}`, name: domain });
      continue;
    }
    const provider = providerOfMailHost(host.name);
    budgetFor.set(domain, {
      key: budgetKeyOf(host, egressOf(domain)),
      name: provider === 'Other' ? host.name.replace(/\.$/, '') : provider,
    });
  }
  const paces = await hostPaces(db, [...new Set([...budgetFor.values()].map((budget) => budget.key))]);
  return estimateFromLoads(
    // A domain with no catch-all finding spends one probe more on it.
    loads.map((load) => ({ ...load, extraProbes: catchAllKnown.has(load.domain) ? 0 : 1 })),
    (domain) => {
      const budget = budgetFor.get(domain)!;
      const pace = paces.get(budget.key);
      return {
        ...budget,
        rate: pace?.rate ?? settings.perHostRate,
        nextSlotAt: pace?.nextSlotAt ?? 0,
        learning: learningOf(budget.key),
      };
    },
    settings.concurrency,
    now,
  );
}

/**
 * Status is asked often: each batch's estimate is worked out at most once per `everyMs`, and the last one
 * given meanwhile, less the time since it was made (so it counts down, not in steps). A batch with none
 * yet (not queued until the engine's next round) is asked again.
 */
export function estimateCache(everyMs: number) {
  const kept = new Map<number, { at: number; estimate: PaceEstimate }>();
  return async (rowKey: number, now: number, work: () => Promise<PaceEstimate | undefined>) => {
    const cached = kept.get(rowKey);
    if (cached && now - cached.at < everyMs) {
      const secondsLeft = Math.max(0, Math.ceil(cached.estimate.secondsLeft - (now - cached.at) / 1000));
      return { ...cached.estimate, secondsLeft };
    }
    const estimate = await work();
    if (estimate) kept.set(rowKey, { at: now, estimate });
    if (kept.size > 100) kept.delete(kept.keys().next().value!);
    return estimate;
  };
}
