// The verdict cache's writer thread (remember-verdicts.ts): reads the verdicts a service gave a list from
// the list's file, keys each address (cache-keys.ts) and keeps them in the cache, off the thread that
// answers the app or writes the exports.
import { parentPort, workerData } from 'node:worker_threads';
import { checkedVerdicts } from '../list-file/checked-verdicts.ts';
import { cacheKeyer } from './cache-keys.ts';
import { defaultMaxAgeDays } from './cache-policy.ts';
import { openVerdictCache, type CacheMode } from './verdict-cache-store.ts';

export type CacheWriterJob = {
  listPath: string;
  dataDir: string;
  secret: string;
  mode: CacheMode;
  service: string;
  checkedAt: number;
};

const job = workerData as CacheWriterJob;
const keyOf = cacheKeyer(job.secret);
const cache = openVerdictCache(job.dataDir);
try {
  const pages = function* () {
    // The results kept, and unknown: an address that stopped answering is a change since its last check.
    for (const page of checkedVerdicts(job.listPath, [...Object.keys(defaultMaxAgeDays), 'unknown'])) {
      // Keyed in place: the address leaves the row as it is read.
      for (const verdict of page) verdict[0] = keyOf(verdict[0]);
      yield page;
    }
  };
  parentPort!.postMessage(cache.remember(job.mode, job.service, job.checkedAt, pages()));
} catch (error) {
  parentPort!.postMessage({ failed: error instanceof Error ? error.message : String(error) });
} finally {
  cache.close();
}
