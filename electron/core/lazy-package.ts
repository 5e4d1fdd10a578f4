// Packages that only some work needs (workbooks, PostgreSQL, SOCKS proxies) are loaded when first used,
// not when Sift starts: each costs megabytes in every thread that loads it, and cleaning a CSV list on
// Sift's own service needs none of them. Each caller names its package in a literal `require('…')`, so
// the single executable's bundle (packaging/) takes in just the packages each thread's code can reach.

/** A function that calls `load` on its first call and answers what it loaded from then on. */
export function lazyPackage<T>(load: () => unknown): () => T {
  let loaded: T | undefined;
  return () => (loaded ??= load() as T);
}
