// The do-not-mail list's public face: what reading a list asks of it, what Settings' Suppression screen
// and `sift suppress` change, and reading a file of entries. Its SQL stays in suppression-store.ts.
import { suppressionMatcher, type SuppressionMatcher } from './suppression-matcher.ts';
import { openSuppressionStore, type SuppressionStore } from './suppression-store.ts';
import type { SuppressionEntry } from './suppression-entries.ts';

export { isRefused, parseSuppressionEntry, type RefusedEntry, type SuppressionEntry } from './suppression-entries.ts';
export { readSuppressionFile } from './suppression-files.ts';
export { openSuppressionStore, type SuppressionStore } from './suppression-store.ts';

/** What a list is read against: the matcher, the list's version it was built from, and closing it. */
export type OpenedSuppression = { matcher: SuppressionMatcher; version: number; close(): void };

/** The do-not-mail list of a data folder as the cleaner uses it; `oneOff` adds a list for one clean. */
export function suppressionSource(dataDir: string, oneOff: readonly SuppressionEntry[] = []) {
  return {
    open(): OpenedSuppression {
      const store: SuppressionStore = openSuppressionStore(dataDir);
      try {
        return { matcher: suppressionMatcher(store, oneOff), version: store.version(), close: () => store.close() };
      } catch (error) {
        store.close();
        throw error;
      }
    },
    version(): number {
      const store = openSuppressionStore(dataDir);
      try {
        return store.version();
      } finally {
        store.close();
      }
    },
  };
}
export type SuppressionSource = ReturnType<typeof suppressionSource>;
