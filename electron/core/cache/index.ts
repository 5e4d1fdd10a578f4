// The verdict cache's public face: what a list asks of it as it is read, what a finished run gives it,
// and what Settings and `sift cache` show and clear. Its threads and its SQL stay inside.
import { cacheKeyer, cacheSecret } from './cache-keys.ts';
import { openCacheHistory, outcomesService, type CheckedVerdict } from './verdict-cache-history.ts';
import type { CacheAsk } from './cache-lookup.ts';
import { defaultMaxAgeDays, freshSince } from './cache-policy.ts';
import { openVerdictCache, verdictCacheFiles, type CacheMode, type VerdictCache } from './verdict-cache-store.ts';

export type { CacheAsk } from './cache-lookup.ts';
export { rememberVerdicts } from './remember-verdicts.ts';
export type { CacheMode } from './verdict-cache-store.ts';

/** What reading a list of `listBytes` for a key of `mode` at `now` asks of the cache in `dataDir`. */
export function cacheAskFor(
  dataDir: string,
  list: { mode: CacheMode; now: number; maxAgeDays?: number; listBytes: number },
): CacheAsk {
  return {
    dataDir,
    secret: cacheSecret(verdictCacheFiles(dataDir).secret),
    mode: list.mode,
    freshSince: freshSince(list.now, list.maxAgeDays),
    listBytes: list.listBytes,
  };
}

/** The cache as Settings and `sift cache` see it; each call opens it, so nothing is held between calls. */
export function verdictCacheIn(dataDir: string) {
  const using = <T>(use: (cache: VerdictCache) => T): T => {
    const cache = openVerdictCache(dataDir);
    try {
      return use(cache);
    } finally {
      cache.close();
    }
  };
  return {
    path: verdictCacheFiles(dataDir).db,
    /** What it holds, with how long each verdict is reused. */
    stats: () => ({ ...using((cache) => cache.stats()), maxAgeDays: { ...defaultMaxAgeDays } }),
    /** Forgets every kept verdict; answers how many. */
    clear: () => ({ forgotten: using((cache) => cache.clear()) }),
  };
}
export type VerdictCacheView = ReturnType<typeof verdictCacheIn>;

export type { CheckedVerdict } from './verdict-cache-history.ts';

/** How the cache of `dataDir` names an address (a keyed hash; the secret is made on first use). */
export const cacheKeysOf = (dataDir: string) => cacheKeyer(cacheSecret(verdictCacheFiles(dataDir).secret));

const dayMs = 86_400_000;

/** When a bounce is kept in the cache: the last moment of its UTC day. */
export const bounceKeptAt = (at: number) => Math.floor(at / dayMs) * dayMs + dayMs - 1;

/**
 * The verdict cache as the outcomes use it, open for a whole read: what Sift had said of addresses before
 * their bounces (verdict-cache-history.ts), hard bounces kept as `invalid` (reason `bounced`) live
 * verdicts so the next list reuses them unbilled, and those forgotten again when a bounce is undone.
 * A bounce is kept at the last moment of its UTC day: the cache holds a kind of verdict per day, not per
 * moment, and a bounce outweighs a check made earlier that day.
 */
export function bounceCache(dataDir: string) {
  const keyOf = cacheKeysOf(dataDir);
  let history: ReturnType<typeof openCacheHistory> | null = null;
  let cache: VerdictCache | null = null;
  const historyOf = () => (history ??= openCacheHistory(dataDir) ?? null);
  return {
    keyOf,
    verdictsOf: (keys: readonly string[]): Map<string, CheckedVerdict> => historyOf()?.verdictsOf(keys) ?? new Map(),
    remember(bounces: readonly { key: string; at: number }[]): void {
      if (bounces.length === 0) return;
      const byDay = new Map<number, { key: string }[]>();
      for (const bounce of bounces) {
        const day = bounceKeptAt(bounce.at);
        (byDay.get(day) ?? byDay.set(day, []).get(day)!).push(bounce);
      }
      cache ??= openVerdictCache(dataDir);
      for (const [day, keys] of byDay)
        cache.remember('live', outcomesService, day, [keys.map(({ key }) => [key, 'invalid', 'bounced'] as const)]);
    },
    forget: (keys: readonly string[]) => historyOf()?.forgetBounces(keys) ?? 0,
    /** Live verdicts by the day they were got and their result (the ledger's "checked"). */
    checkedByDay: () => historyOf()?.checkedByDay() ?? [],
    close() {
      history?.close();
      cache?.close();
    },
  };
}
