// What the verdict cache knows of a chunk of a list being imported, asked on the import's writer thread
// as it stores the chunk: each address to check is keyed (cache-keys.ts) and looked up, and a fresh verdict
// of the same mode is its verdict, reused and free.
import { cacheKeyer } from './cache-keys.ts';
import { openCacheReader, type CachedVerdict, type LoadedVerdicts } from './verdict-cache-reader.ts';
import type { CacheMode } from './verdict-cache-schema.ts';

/**
 * A verdict the cache has for an address: what it was, why, and when it was checked; `stale`: valid then but
 * too old to reuse, so the address is checked again and only its history kept.
 */
export type CacheHit = { result: string; reason: string | null; cachedAt: number; stale?: true };
/** What the cache needs of an address a list is adding: its key, and whether it would be sent at all. */
type AddressToLookUp = { key: string; sendable: boolean };

/** What the import needs to ask the cache (plain data: it crosses to the writer thread). */
export type CacheAsk = {
  dataDir: string;
  secret: string;
  mode: CacheMode;
  /** The oldest each verdict may be to be reused (cache-policy.ts). */
  freshSince: Record<string, number>;
  /** The list file's size: how many addresses it may hold, next to how many verdicts the cache keeps. */
  listBytes: number;
};

/** The fewest bytes a row of a list takes, near enough: a bare address and its line's end. */
const bytesPerRowAtLeast = 24;
/**
 * Loading the cache costs about a tenth of asking it for one address key by key: it pays when the list
 * may hold a tenth as many addresses as the cache keeps verdicts.
 */
const loadWhenListIsAtLeast = 1 / 10;
/** Past this many verdicts (about 12 bytes each in memory), the cache is asked key by key whatever the list. */
const loadAtMost = 5_000_000;

export function cacheLookupFor(ask: CacheAsk) {
  const reader = openCacheReader(ask.dataDir);
  const keyOf = cacheKeyer(ask.secret);
  // A cache with nothing of this mode (a first list, say) answers nothing: no address is keyed for it.
  const holdsAny = reader.holdsAny(ask.mode);
  const entries = reader.estimatedEntries();
  const mayHold = ask.listBytes / bytesPerRowAtLeast;
  const loaded: LoadedVerdicts | undefined =
    holdsAny && entries <= loadAtMost && mayHold >= entries * loadWhenListIsAtLeast
      ? reader.load(ask.mode, ask.freshSince)
      : undefined;
  const asHit = (verdict: CachedVerdict): CacheHit => ({
    result: verdict.result,
    reason: verdict.reason,
    cachedAt: verdict.checkedAt,
    ...(verdict.stale ? { stale: true as const } : {}),
  });
  /** One hit per kind of verdict, shared by every address that has it. */
  const hitOfKind = new Map([...(loaded?.kinds ?? [])].map(([kind, verdict]) => [kind, asHit(verdict)]));
  return {
    /** Whether the cache was loaded into memory for this list (else it is asked key by key). */
    loaded: loaded !== undefined,
    /** The fresh verdicts the cache has for these new addresses (and stale valid ones), by their place in `addresses`. */
    hitsFor(addresses: readonly AddressToLookUp[]): (CacheHit | undefined)[] | undefined {
      if (!holdsAny) return undefined;
      const hits: (CacheHit | undefined)[] = new Array(addresses.length);
      if (loaded) {
        const { table } = loaded;
        if (table.size === 0) return undefined;
        for (let i = 0; i < addresses.length; i += 1) {
          const address = addresses[i]!;
          if (!address.sendable) continue;
          const kind = table.kindOf(keyOf(address.key));
          if (kind >= 0) hits[i] = hitOfKind.get(kind);
        }
        return hits;
      }
      const placeByKey = new Map<string, number>();
      addresses.forEach((address, place) => {
        if (address.sendable) placeByKey.set(keyOf(address.key), place);
      });
      for (const [key, verdict] of reader.lookup(ask.mode, [...placeByKey.keys()], ask.freshSince))
        hits[placeByKey.get(key)!] = asHit(verdict);
      return hits;
    },
    close: () => reader.close(),
  };
}
