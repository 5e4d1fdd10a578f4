// Per-key, per-operation fixed windows: every caller on a key shares one budget, and each answer
// can say how much is left and when it resets.
import type { RateLimitRule } from './service-config.ts';

export type RateDecision = {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Unix seconds when the window resets. */
  resetSeconds: number;
  retryAfterSeconds: number;
};

export type RateLimiter = { take(subject: string, rule: RateLimitRule, now: number): RateDecision };

export function createRateLimiter(): RateLimiter {
  const windows = new Map<string, { start: number; count: number }>();
  return {
    take(subject, rule, now) {
      const windowMs = rule.windowSeconds * 1000;
      const start = Math.floor(now / windowMs) * windowMs;
      const id = `${subject}|${rule.limit}/${rule.windowSeconds}`;
      let window = windows.get(id);
      if (!window || window.start !== start) {
        window = { start, count: 0 };
        windows.set(id, window);
        if (windows.size > 10_000) for (const [key, value] of windows) if (value.start < start) windows.delete(key);
      }
      const allowed = window.count < rule.limit;
      if (allowed) window.count += 1;
      const resetMs = start + windowMs;
      return {
        allowed,
        limit: rule.limit,
        remaining: Math.max(0, rule.limit - window.count),
        resetSeconds: Math.ceil(resetMs / 1000),
        retryAfterSeconds: Math.max(1, Math.ceil((resetMs - now) / 1000)),
      };
    },
  };
}
