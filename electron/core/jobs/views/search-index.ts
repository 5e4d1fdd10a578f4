// Each list's search index, built once on a thread of its own after its row text is kept (a list is
// explored, or has just been checked): until it is ready, a search reads every row as before.
import type { Worker } from 'node:worker_threads';
import { startThread } from '../../own-files.ts';

export type SearchIndexes = {
  /** Builds the list's index unless it is built or being built; resolves when it is ready (or failed). */
  build(jobId: string, listPath: string): Promise<void>;
  /** Stops a build under way (the list is being deleted, or the app closes). */
  stop(jobId?: string): Promise<void>;
};

export function searchIndexes(log: (message: string) => void): SearchIndexes {
  const building = new Map<string, { worker: Worker; done: Promise<void> }>();
  /** Lists whose index could not be built: searched row by row, not tried again on every page. */
  const failed = new Set<string>();
  const fail = (jobId: string, why: string) => {
    failed.add(jobId);
    log(`The search index of job ${jobId} could not be built (a search reads every row instead): ${why}`);
  };
  return {
    build(jobId, listPath) {
      const under = building.get(jobId);
      if (under) return under.done;
      if (failed.has(jobId)) return Promise.resolve();
      // A small young generation: the chunks it parses are short-lived.
      const worker = startThread(import.meta.url, 'search-index-worker', {
        workerData: { listPath },
        resourceLimits: { maxYoungGenerationSizeMb: 4, maxOldGenerationSizeMb: 64 },
      });
      const done = new Promise<void>((resolve) => {
        worker.once('message', (message: { rows: number } | { failed: string }) => {
          if ('failed' in message) fail(jobId, message.failed);
          resolve();
        });
        worker.once('error', (error) => {
          fail(jobId, error.message);
          resolve();
        });
        worker.once('exit', () => resolve());
      }).finally(() => building.delete(jobId));
      building.set(jobId, { worker, done });
      return done;
    },
    async stop(jobId) {
      const stopping =
        jobId === undefined ? [...building.values()] : [building.get(jobId)].filter((b) => b !== undefined);
      await Promise.all(stopping.map(async ({ worker, done }) => (await worker.terminate(), await done)));
    },
  };
}
