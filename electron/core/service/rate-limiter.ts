// Per-key, per-operation fixed windows, counted in the database: every caller on a key shares one budget
// whichever service process answers it, and each answer can say how much is left and when it resets.
import type { SqlConnection } from '../storage/sql-connection.ts';
import type { RateLimitRule } from './service-config.ts';
import { countCall, forgetEndedWindows } from './store/rate-windows-store.ts';

type RateDecision = {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Unix seconds when the window resets. */
  resetSeconds: number;
  retryAfterSeconds: number;
};

export type RateLimiter = { take(subject: string, rule: RateLimitRule, now: number): Promise<RateDecision> };

/** How often a process clears windows that have ended. */
const sweepEveryMs = 60_000;

export function createRateLimiter(db: SqlConnection): RateLimiter {
  let nextSweepAt = 0;
  return {
    async take(subject, rule, now) {
      const windowMs = rule.windowSeconds * 1000;
      const start = Math.floor(now / windowMs) * windowMs;
      const resetMs = start + windowMs;
      if (now >= nextSweepAt) {
        nextSweepAt = now + sweepEveryMs;
        await forgetEndedWindows(db, now);
      }
      const bucket = `${subject}|${rule.limit}/${rule.windowSeconds}`;
      const used = rule.limit > 0 ? await countCall(db, { bucket, start, end: resetMs }, rule.limit) : undefined;
      return {
        allowed: used !== undefined,
        limit: rule.limit,
        remaining: used === undefined ? 0 : Math.max(0, rule.limit - used),
        resetSeconds: Math.ceil(resetMs / 1000),
        retryAfterSeconds: Math.max(1, Math.ceil((resetMs - now) / 1000)),
      };
    },
  };
}
