// What the verdict cache knows of a chunk of a list being imported, asked on the import's writer thread
// as it stores the chunk: each address to check is keyed (cache-keys.ts) and looked up, and a fresh verdict
// of the same mode is its verdict, reused and free.
import type { CacheHit, NewAddress } from '../jobs/store/index.ts';
import { cacheKeyer } from './cache-keys.ts';
import { openCacheReader, type CacheMode } from './verdict-cache-store.ts';

/** What the import needs to ask the cache (plain data: it crosses to the writer thread). */
export type CacheAsk = {
  dataDir: string;
  secret: string;
  mode: CacheMode;
  /** The oldest each verdict may be to be reused (cache-policy.ts). */
  freshSince: Record<string, number>;
};

export function cacheLookupFor(ask: CacheAsk) {
  const reader = openCacheReader(ask.dataDir);
  const keyOf = cacheKeyer(ask.secret);
  // A cache with nothing of this mode (a first list, say) answers nothing: no address is keyed for it.
  const holdsAny = reader.holdsAny(ask.mode);
  return {
    /** The fresh verdicts the cache has for these new addresses, by id. */
    hitsFor(addresses: readonly NewAddress[]): Map<number, CacheHit> {
      if (!holdsAny) return new Map();
      const idsByKey = new Map<string, number>();
      for (const address of addresses) if (address.sendable) idsByKey.set(keyOf(address.key), address.id);
      const hits = new Map<number, CacheHit>();
      for (const [key, verdict] of reader.lookup(ask.mode, [...idsByKey.keys()], ask.freshSince)) {
        const id = idsByKey.get(key)!;
        hits.set(id, { id, result: verdict.result, reason: verdict.reason, cachedAt: verdict.checkedAt });
      }
      return hits;
    },
    close: () => reader.close(),
  };
}
