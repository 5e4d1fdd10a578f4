// The verdict cache as Settings shows it: what it holds, how old it is, and how long each verdict is reused.
import { z } from 'zod';

const count = z.number().int().nonnegative();

export const cacheStatsSchema = z.object({
  entries: count,
  live: count,
  /** Kept from sandbox keys' demo verdicts: only ever reused for a sandbox key's lists. */
  sandbox: count,
  /** When the oldest kept verdict was got (ms), or null when there is none. */
  oldest: z.number().int().nullable(),
  bytes: count,
  /** Days each verdict is reused by default; a verdict not named (unknown) never is. */
  maxAgeDays: z.record(z.string(), count),
});
export type CacheStats = z.infer<typeof cacheStatsSchema>;
