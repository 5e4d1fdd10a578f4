// After a list is checked, its verdicts go into the verdict cache for the next lists: on a thread of its
// own (cache-writer-worker.ts), so a million addresses keyed and kept never hold up the app or the export.
import type { VerdictChanges } from '../../common/list-schemas.ts';
import { startThread } from '../own-files.ts';
import { cacheSecret } from './cache-keys.ts';
import type { CacheWriterJob } from './cache-writer-worker.ts';
import { verdictCacheFiles, type CacheMode } from './verdict-cache-store.ts';

/** A service as the cache names it: its API root without any credentials a URL could carry, or its name. */
function cacheServiceName(service: string): string {
  if (!URL.canParse(service)) return service;
  const { origin, pathname } = new URL(service);
  return origin === 'null' ? service : `${origin}${pathname}`;
}

/**
 * Keeps the verdicts a service gave the list at `listPath`; answers how many were kept, and what changed
 * for addresses an earlier check had a verdict for.
 */
export function rememberVerdicts(request: {
  listPath: string;
  dataDir: string;
  mode: CacheMode;
  /** The service's name (`ServiceClient.serviceName`). */
  service: string;
  checkedAt: number;
}): Promise<{ kept: number; changes?: VerdictChanges }> {
  const job: CacheWriterJob = {
    listPath: request.listPath,
    dataDir: request.dataDir,
    secret: cacheSecret(verdictCacheFiles(request.dataDir).secret),
    mode: request.mode,
    service: cacheServiceName(request.service),
    checkedAt: request.checkedAt,
  };
  return new Promise((resolve, reject) => {
    // A small young generation: the pages it keys are short-lived, and its memory adds to the export's.
    const worker = startThread(import.meta.url, 'cache-writer-worker', {
      workerData: job,
      resourceLimits: { maxYoungGenerationSizeMb: 4, maxOldGenerationSizeMb: 32 },
    });
    worker.once('message', (message: { kept: number; changes?: VerdictChanges } | { failed: string }) =>
      'kept' in message
        ? resolve(message)
        : reject(new Error(`The verdict cache could not be written: ${message.failed}`)),
    );
    worker.once('error', reject);
    worker.once('exit', (code) => {
      if (code !== 0) reject(new Error(`The verdict cache's writer stopped (${code}).`));
    });
  });
}
