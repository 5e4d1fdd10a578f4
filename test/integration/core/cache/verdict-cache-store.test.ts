// The verdict cache's file: a cache an older Sift wrote (one row per verdict with its words) keeps every
// verdict when this Sift opens it; and the two ways an import asks (key by key, or everything loaded into
// memory for a large list) answer the same, fresh verdicts of the asked mode only.
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { describe, expect, it } from 'vitest';
import { cacheKeyer } from '../../../../electron/core/cache/cache-keys.ts';
import { cacheLookupFor } from '../../../../electron/core/cache/cache-lookup.ts';
import { freshSince } from '../../../../electron/core/cache/cache-policy.ts';
import { openCacheReader } from '../../../../electron/core/cache/verdict-cache-reader.ts';
import { openVerdictCache, verdictCacheFiles } from '../../../../electron/core/cache/verdict-cache-store.ts';

const day = 24 * 60 * 60_000;
const now = Date.UTC(2026, 10, 1);
const keyOf = cacheKeyer('c'.repeat(64));
const results = ['valid', 'invalid', 'catch_all', 'unknown'] as const;
const addresses = Array.from({ length: 400 }, (_, i) => `person${i}@place${i % 13}.example`);
/** Each address's verdict: its kind by its number, half of them got 40 days ago. */
const verdictOf = (i: number) => ({
  result: results[i % 4]!,
  reason: i % 3 === 0 ? null : `reason_${i % 3}`,
  checkedAt: i % 2 === 0 ? now - day : now - 40 * day,
});

/** A verdict as the cache is given it. */
const entry = (key: string, verdict: { result: string; reason: string | null }) =>
  [key, verdict.result, verdict.reason] as const;

/** What both ways of asking answer for every address (and some never kept), as plain rows. */
function answers(dataDir: string, mode: 'live' | 'sandbox') {
  const reader = openCacheReader(dataDir);
  try {
    const asked = [...addresses, 'nobody@nowhere.example'].map(keyOf);
    const fresh = freshSince(now);
    const oneByOne = reader.lookup(mode, asked, fresh);
    const loaded = reader.load(mode, fresh)!;
    const fromTable = new Map(
      asked.flatMap((key) => {
        const kind = loaded.table.kindOf(key);
        return kind < 0 ? [] : [[key, loaded.kinds.get(kind)!] as const];
      }),
    );
    return { oneByOne, fromTable };
  } finally {
    reader.close();
  }
}

describe('the verdict cache file', () => {
  it('answers the same key by key and loaded whole: fresh verdicts of the mode asked, nothing else', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'sift-cache-store-'));
    const cache = openVerdictCache(dataDir);
    for (const [mode, checkedAt] of [
      ['live', now - day],
      ['live', now - 40 * day],
    ] as const) {
      const page = addresses.flatMap((address, i) =>
        verdictOf(i).checkedAt === checkedAt ? [entry(keyOf(address), verdictOf(i))] : [],
      );
      cache.remember(mode, 'https://svc.example/v1', checkedAt, [page.slice(0, 50), page.slice(50)]);
    }
    // Demo verdicts of the same addresses, all "valid": never answered to a live ask.
    cache.remember('sandbox', 'https://svc.example/v1', now - day, [
      addresses.slice(0, 100).map((address) => [keyOf(address), 'valid', 'demo:x'] as const),
    ]);
    // The 100 unknown verdicts are compared (an address that stopped answering is a change) but not kept.
    expect(cache.stats()).toMatchObject({ entries: 400, live: 300, sandbox: 100, oldest: now - 40 * day });
    cache.close();

    const { oneByOne, fromTable } = answers(dataDir, 'live');
    expect(fromTable).toEqual(oneByOne);
    // valid and catch_all 30 days, invalid 90, unknown never: the 40-day-old invalid ones stand, the others not.
    const expected = addresses.flatMap((address, i) => {
      const verdict = verdictOf(i);
      const fresh = verdict.result === 'invalid' || (verdict.result !== 'unknown' && verdict.checkedAt === now - day);
      return fresh ? [[keyOf(address), verdict] as const] : [];
    });
    expect(oneByOne).toEqual(new Map(expected));
    const demo = answers(dataDir, 'sandbox');
    expect(demo.fromTable).toEqual(demo.oneByOne);
    expect([...demo.oneByOne.values()].every((verdict) => verdict.reason === 'demo:x')).toBe(true);
    expect(demo.oneByOne.size).toBe(100);
  });

  it("keeps every verdict of a cache an older Sift wrote, the newer one's answers unchanged", async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'sift-cache-v1-'));
    const old = new DatabaseSync(verdictCacheFiles(dataDir).db);
    old.exec(`
      CREATE TABLE services (id INTEGER PRIMARY KEY, url TEXT NOT NULL UNIQUE);
      CREATE TABLE verdicts (
        mode INTEGER NOT NULL, key TEXT NOT NULL, result TEXT NOT NULL, reason TEXT,
        checked_at INTEGER NOT NULL, service INTEGER NOT NULL REFERENCES services (id), PRIMARY KEY (mode, key)
      ) WITHOUT ROWID;
      INSERT INTO services VALUES (1, 'https://svc.example/v1');
      PRAGMA user_version = 1`);
    const insert = old.prepare('INSERT INTO verdicts VALUES (0, ?, ?, ?, ?, 1)');
    addresses.forEach((address, i) => {
      const verdict = verdictOf(i);
      insert.run(keyOf(address), verdict.result, verdict.reason, verdict.checkedAt);
    });
    old.close();

    const { oneByOne, fromTable } = answers(dataDir, 'live');
    expect(fromTable).toEqual(oneByOne);
    expect(oneByOne.size).toBe(
      addresses.filter(
        (_, i) => verdictOf(i).result === 'invalid' || (verdictOf(i).result !== 'unknown' && i % 2 === 0),
      ).length,
    );
    for (const [key, verdict] of oneByOne) {
      const i = addresses.findIndex((address) => keyOf(address) === key);
      expect(verdict).toEqual(verdictOf(i));
    }
    const cache = openVerdictCache(dataDir);
    expect(cache.stats()).toMatchObject({ entries: 400, live: 400, sandbox: 0, oldest: now - 40 * day });
    cache.close();
  });
});

describe("an import's lookups", () => {
  it('load the cache for a list large next to it and ask key by key for a short one, with the same hits', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'sift-cache-lookup-'));
    const cache = openVerdictCache(dataDir);
    cache.remember('live', 'https://svc.example/v1', now - day, [
      addresses.map((address, i) => entry(keyOf(address), verdictOf(i))),
    ]);
    cache.close();
    const newAddresses = [...addresses, 'nobody@nowhere.example'].map((key, id) => ({
      id,
      key,
      address: key,
      firstRow: id,
      sendable: id % 10 !== 9,
      role: false,
      disposable: false,
      suggestion: null,
    }));
    const ask = { dataDir, secret: 'c'.repeat(64), mode: 'live' as const, freshSince: freshSince(now) };
    const hitsWhen = (listBytes: number) => {
      const lookup = cacheLookupFor({ ...ask, listBytes });
      try {
        return { loaded: lookup.loaded, hits: lookup.hitsFor(newAddresses)! };
      } finally {
        lookup.close();
      }
    };
    const large = hitsWhen(50_000_000);
    const short = hitsWhen(100);
    expect([large.loaded, short.loaded]).toEqual([true, false]);
    expect(large.hits).toEqual(short.hits);
    // valid, invalid and catch_all a day old are reused; unknown never; an address not to send is not asked.
    newAddresses.forEach((address, i) => {
      const reused = address.sendable && i < addresses.length && verdictOf(i).result !== 'unknown';
      expect(short.hits[i], address.key).toEqual(
        reused ? { result: verdictOf(i).result, reason: verdictOf(i).reason, cachedAt: now - day } : undefined,
      );
    });
  });
});
