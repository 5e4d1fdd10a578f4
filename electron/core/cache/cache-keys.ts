// How the verdict cache names an address without holding it: a keyed hash of the normalised address,
// with a random secret made on first use and kept beside the cache, readable by this user only. Without
// the secret, no dictionary of addresses turns the cache's keys back into addresses.
import { hash, randomBytes } from 'node:crypto';
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

/** Hex characters of a key: the first 128 bits of the hash, plenty to tell a billion addresses apart. */
const keyLength = 32;

/** The secret at `path`, made (32 random bytes, mode 0600) when there is none. */
export function cacheSecret(path: string): string {
  try {
    return readFileSync(path, 'utf8').trim();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
    const secret = randomBytes(32).toString('hex');
    // `wx`: two processes making it at once keep the first one's.
    try {
      writeFileSync(path, secret, { mode: 0o600, flag: 'wx' });
    } catch (raced) {
      if ((raced as NodeJS.ErrnoException).code !== 'EEXIST') throw raced;
      return readFileSync(path, 'utf8').trim();
    }
    chmodSync(path, 0o600);
    return secret;
  }
}

/** The cache's key for a normalised address (the list's key: trimmed, lower-cased). */
export function cacheKeyer(secret: string): (address: string) => string {
  const prefix = `${secret}\0`;
  return (address) => (hash('sha256', prefix + address, 'hex') as string).slice(0, keyLength);
}
