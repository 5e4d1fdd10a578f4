// Each list's row text and search index, made once on a thread of their own: as soon as the list is read
// (while a person reviews it, and while it is checked), or when it is first explored. Until the index is
// ready, a search reads every row.
import type { Worker } from 'node:worker_threads';
import { startThread } from '../../own-files.ts';
import type { RowTextSource } from './row-text-pass.ts';

type SearchPreparation = {
  /** Resolves true once the row text is kept (at once when it was), false when the thread could not keep it. */
  textKept: Promise<boolean>;
  /** Resolves when the index is ready (or could not be built). */
  indexed: Promise<void>;
};

export type SearchIndexes = {
  /**
   * Keeps the list's row text (with `source`: from its input, unless kept) and builds its index, unless
   * that is done or under way.
   */
  prepare(jobId: string, listPath: string, source?: RowTextSource & { rows: number }): SearchPreparation;
  /** Stops a build under way (the list is being deleted); with no job, every build, and starts no more (the app closes). */
  stop(jobId?: string): Promise<void>;
};

type Message = { textKept: true } | { rows: number } | { failed: string };

export function searchIndexes(log: (message: string) => void): SearchIndexes {
  const building = new Map<string, SearchPreparation & { worker: Worker }>();
  /** Lists whose index could not be built: searched row by row, not tried again on every page. */
  const failed = new Set<string>();
  const fail = (jobId: string, why: string) => {
    failed.add(jobId);
    log(`The search index of job ${jobId} could not be built (a search reads every row instead): ${why}`);
  };
  let stopped = false;
  return {
    prepare(jobId, listPath, source) {
      const under = building.get(jobId);
      if (under) return under;
      if (failed.has(jobId) || stopped) return { textKept: Promise.resolve(false), indexed: Promise.resolve() };
      // A small young generation: the chunks it parses are short-lived.
      const worker = startThread(import.meta.url, 'search-index-worker', {
        workerData: { listPath, source },
        resourceLimits: { maxYoungGenerationSizeMb: 4, maxOldGenerationSizeMb: 64 },
      });
      let textKept!: (kept: boolean) => void;
      const textPromise = new Promise<boolean>((resolve) => (textKept = resolve));
      if (!source) textKept(true);
      const indexed = new Promise<void>((resolve) => {
        worker.on('message', (message: Message) => {
          if ('textKept' in message) return textKept(true);
          if ('failed' in message) fail(jobId, message.failed);
          resolve();
        });
        worker.once('error', (error) => {
          fail(jobId, error.message);
          resolve();
        });
        worker.once('exit', () => resolve());
      }).finally(() => {
        // Ended without saying the text was kept (failed, stopped): the app's thread keeps it instead.
        textKept(false);
        building.delete(jobId);
      });
      const preparation = { worker, textKept: textPromise, indexed };
      building.set(jobId, preparation);
      return preparation;
    },
    async stop(jobId) {
      if (jobId === undefined) stopped = true;
      const stopping =
        jobId === undefined ? [...building.values()] : [building.get(jobId)].filter((b) => b !== undefined);
      await Promise.all(stopping.map(async ({ worker, indexed }) => (await worker.terminate(), await indexed)));
    },
  };
}
