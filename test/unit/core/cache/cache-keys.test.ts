// The cache's keys: a secret made once per data folder, readable by its owner only, and a keyed hash
// that differs from folder to folder, so no shared dictionary turns keys back into addresses.
import { mkdtemp, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cacheKeyer, cacheSecret } from '../../../../electron/core/cache/cache-keys.ts';
import { freshSince } from '../../../../electron/core/cache/cache-policy.ts';

describe('verdict cache keys', () => {
  it('makes the secret once, for its owner only, and keeps it', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'sift-cache-keys-'));
    const path = join(dir, 'nested', 'verdict-cache.secret');
    const secret = cacheSecret(path);
    expect(secret).toMatch(/^[0-9a-f]{64}$/);
    expect((await stat(path)).mode & 0o777).toBe(0o600);
    expect(cacheSecret(path)).toBe(secret);
    expect(cacheSecret(join(dir, 'other.secret'))).not.toBe(secret);
  });

  it('keys an address by the secret: stable for one, different for another', () => {
    const one = cacheKeyer('a'.repeat(64));
    const other = cacheKeyer('b'.repeat(64));
    expect(one('ann@example.com')).toMatch(/^[0-9a-f]{32}$/);
    expect(one('ann@example.com')).toBe(one('ann@example.com'));
    expect(one('ann@example.com')).not.toBe(one('bob@example.com'));
    expect(one('ann@example.com')).not.toBe(other('ann@example.com'));
  });

  it('reuses each kind for its own days, --max-age for all, and unknown never', () => {
    const now = Date.UTC(2026, 10, 25);
    const day = 86_400_000;
    expect(freshSince(now)).toEqual({ invalid: now - 90 * day, valid: now - 30 * day, catch_all: now - 30 * day });
    expect(freshSince(now, 7)).toEqual({ invalid: now - 7 * day, valid: now - 7 * day, catch_all: now - 7 * day });
  });
});
