// Packages that only some work needs (workbooks, PostgreSQL, SOCKS proxies) are loaded when first used,
// not when Sift starts: each costs megabytes in every thread that loads it, and cleaning a CSV list on
// Sift's own service needs none of them.
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

/** A function that loads the package `name` on its first call and answers it from then on. */
export function lazyPackage<T>(name: string): () => T {
  let loaded: T | undefined;
  return () => (loaded ??= require(name) as T);
}
