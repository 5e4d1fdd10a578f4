// One rate budget per API key, shared by every caller in the process (several jobs, one budget) and, with
// a data folder, by every Sift process on that folder (send-log-store.ts): the spec's per-operation limits
// are kept before sending, and the service's own rate-limit headers slow it down further (pause until
// Reset when Remaining falls below a tenth of Limit; wait out a 429).
import { createHash } from 'node:crypto';
import { rateLimitResetIsUnixSeconds } from '../wire/assumptions.ts';
import { defaultRateLimits, slowDownFraction } from '../wire/spec.ts';
import type { Clock } from './clock.ts';
import { openSendLog, type SendLog } from './send-log-store.ts';

export type Operation = keyof typeof defaultRateLimits | 'other';
type Rule = { limit: number; windowSeconds: number };

export type RateBudget = {
  /** Resolves when a request of this kind may be sent now, and counts it. */
  acquire(operation: Operation, clock: Clock, signal?: AbortSignal): Promise<void>;
  /** Reads X-RateLimit-Limit/Remaining/Reset from any answer. */
  observe(operation: Operation, headers: Headers, clock: Clock): void;
  /** Holds every caller of this kind back until `untilMs` (after a 429). */
  pauseUntil(operation: Operation, untilMs: number): void;
};

/** Sends counted with other processes: the log, and this key's name in it (a hash, never the key). */
export type SharedSends = { log: SendLog; budget: string };

export function createRateBudget(
  defaults: Partial<Record<Operation, Rule>> = defaultRateLimits,
  shared?: SharedSends,
): RateBudget {
  // The spec's limits until the service says otherwise. Spec: X-RateLimit-Limit is "the limit in force", so
  // a key the service allows more (Sift's own service does for the app's key) or less is kept to that.
  const rules = new Map(Object.entries(defaults) as [Operation, Rule][]);
  const sent = new Map<Operation, number[]>();
  const paused = new Map<Operation, number>();
  return {
    async acquire(operation, clock, signal) {
      for (;;) {
        signal?.throwIfAborted();
        const now = clock.now();
        const pausedUntil = paused.get(operation) ?? 0;
        if (now < pausedUntil) {
          await clock.sleep(pausedUntil - now, signal);
          continue;
        }
        const rule = rules.get(operation);
        if (!rule) return;
        if (shared) {
          // The log holds every process's sends, this one's included, in the same sliding window.
          const waitMs = shared.log.take(shared.budget, operation, rule.limit, rule.windowSeconds * 1000, now);
          if (waitMs === 0) return;
          await clock.sleep(waitMs, signal);
          continue;
        }
        // A sliding window: never more than `limit` sends in any `windowSeconds`, so the service's
        // fixed windows, wherever they fall, never see more than the limit either.
        const windowMs = rule.windowSeconds * 1000;
        const times = sent.get(operation) ?? [];
        while (times.length > 0 && times[0]! <= now - windowMs) times.shift();
        if (times.length < rule.limit) {
          times.push(now);
          sent.set(operation, times);
          return;
        }
        await clock.sleep(times[0]! + windowMs - now, signal);
      }
    },
    observe(operation, headers, clock) {
      const limit = Number(headers.get('x-ratelimit-limit'));
      const remaining = Number(headers.get('x-ratelimit-remaining'));
      const reset = Number(headers.get('x-ratelimit-reset'));
      if (
        !headers.has('x-ratelimit-remaining') ||
        !Number.isFinite(limit) ||
        !Number.isFinite(remaining) ||
        !Number.isFinite(reset)
      )
        return;
      const rule = rules.get(operation);
      if (rule && limit > 0 && limit !== rule.limit) rules.set(operation, { ...rule, limit });
      if (limit > 0 && remaining < limit * slowDownFraction) {
        // Reset is a Unix time in seconds (assumed, as the spec's example); never pause for more than two minutes.
        const resetMs = rateLimitResetIsUnixSeconds ? reset * 1000 : clock.now() + reset * 1000;
        const untilMs = Math.min(resetMs, clock.now() + 120_000);
        this.pauseUntil(operation, untilMs);
      }
    },
    pauseUntil(operation, untilMs) {
      paused.set(operation, Math.max(paused.get(operation) ?? 0, untilMs));
    },
  };
}

const budgets = new Map<string, RateBudget>();
const sendLogs = new Map<string, SendLog>();

/**
 * The budget of one key for this process, and with `dataDir` for every process on that data folder.
 * Keyed by a hash, so neither the map nor the log holds the key itself.
 */
export function sharedBudgetFor(apiKey: string, dataDir?: string): RateBudget {
  const id = createHash('sha256').update(`sift-rate-budget\0${apiKey}`).digest('hex');
  const entry = `${id}\0${dataDir ?? ''}`;
  let budget = budgets.get(entry);
  if (!budget) {
    let log = dataDir === undefined ? undefined : sendLogs.get(dataDir);
    if (dataDir !== undefined && !log) {
      log = openSendLog(dataDir);
      sendLogs.set(dataDir, log);
    }
    budget = createRateBudget(defaultRateLimits, log && { log, budget: id });
    budgets.set(entry, budget);
  }
  return budget;
}
