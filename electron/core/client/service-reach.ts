// What a service offers beyond the spec's main path, and how Sift learns it: the two shortcuts (a list as
// one CSV upload, results as one CSV download) are used only where the service said it has them, and a
// batch part is sized to what the service took. The memory is kept per service URL (reach-store.ts), so
// the app and the CLI learn once and learn again when the service changes.
import { firstBatchPartSize, shortcutFeatures, type Account } from '../wire/assumptions.ts';
import { ServiceClientError } from './client-errors.ts';

export type ServiceReach = {
  /** POST /files takes a list as raw CSV (Sift's own service says so; the spec does not show its payload). */
  files: boolean;
  /** A finished batch downloads as one CSV (its path and shape are not shown by the spec). */
  resultsCsv: boolean;
  /** Addresses per POST /batches: the first guess, or what the service took after refusing more. */
  batchSize: number;
};

export type Shortcut = 'files' | 'resultsCsv';

export const unlearnedReach: ServiceReach = { files: false, resultsCsv: false, batchSize: firstBatchPartSize };

/** The shortcuts an account says it has; a service that says nothing has none. */
export function shortcutsOf(account: Pick<Account, 'features'>): Pick<ServiceReach, Shortcut> {
  const features = account.features ?? [];
  return {
    files: features.includes(shortcutFeatures.files),
    resultsCsv: features.includes(shortcutFeatures.resultsCsv),
  };
}

/**
 * A shortcut the service does not have here: no such route (404), method (405), media type (415) or
 * feature (501). Nothing was done, so the same addresses may go the spec's way at no cost.
 */
const notHereStatuses: ReadonlySet<number> = new Set([404, 405, 415, 501]);
export const isNotHere = (error: unknown): boolean =>
  error instanceof ServiceClientError && error.status !== undefined && notHereStatuses.has(error.status);

/** A request refused for its size: 413, or a 400 whose code or words name the size. Nothing was done. */
export function isTooLarge(error: unknown): boolean {
  if (!(error instanceof ServiceClientError) || error.status === undefined) return false;
  if (error.status === 413) return true;
  return (
    error.status === 400 && /too[\s_-]?(large|big|many)|size|maximum|exceed/i.test(`${error.code} ${error.message}`)
  );
}

/** What Settings ▸ Test connection says a service supports, in a person's words. */
export function describeReach(reach: ServiceReach): { uploads: string; results: string } {
  return {
    uploads: reach.files
      ? 'as one file per list (a shortcut this service offers)'
      : `as batches of up to ${reach.batchSize.toLocaleString('en')} addresses`,
    results: reach.resultsCsv ? 'as one download per batch (a shortcut this service offers)' : 'page by page',
  };
}
