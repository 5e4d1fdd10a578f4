// Stores an import's chunks on a thread of its own (import-writer-worker.ts), so reading and pre-checking
// the list (this thread) and writing it to SQLite (that one) run on two cores at once. A few chunks may be
// in flight; until the worker says a chunk is stored, its keys are answered from the chunk here.
import { packedKeyOf, transferablesOf, type PackedChunk, type SentKeys } from './import-chunks.ts';
import { failureError, type ThreadFailure } from '../job-threads.ts';
import { startThread } from '../../own-files.ts';
import type { CacheAsk } from '../../cache/cache-lookup.ts';

/** `toSend`: the chunk's new addresses that are for the service to check (not pre-settled, not cached). */
export type WriterMessage = { stored: number; toSend: number } | { closed: true } | { failed: ThreadFailure };

/** Chunks sent and not yet stored before the reader waits: enough to keep both threads busy. */
const maxInFlight = 4;
/** How long an abandoned writer has to finish the chunks in flight and close before it is terminated. */
const abortGraceMs = 10_000;

export type ImportWriter = {
  /** Sends a chunk; answers a promise to wait for when too many are in flight. */
  write(chunk: PackedChunk): Promise<void> | undefined;
  /** The key of an address sent but perhaps not stored yet, or undefined. */
  keyOf(id: number): string | undefined;
  /** Stores what was sent, then ends the worker. */
  close(): Promise<void>;
  /** Ends the worker once the chunks in flight are stored (an import that failed starts over from the file). */
  abort(): Promise<void>;
};

/**
 * Starts the writer for the list at `listPath`; with `cache`, it reuses what the verdict cache knows.
 * `onToSend` is told once, when a stored chunk first holds an address for the service to check.
 */
export function startImportWriter(listPath: string, cache?: CacheAsk, onToSend?: () => void): ImportWriter {
  const worker = startThread(import.meta.url, 'import-writer-worker', {
    workerData: { listPath, ...(cache ? { cache } : {}) },
  });
  const inFlight: SentKeys[] = [];
  let failure: Error | null = null;
  let closed = false;
  let waiters: { resolve: () => void; reject: (error: Error) => void; until: () => boolean }[] = [];

  const wake = () => {
    const ready = waiters.filter((waiter) => failure || waiter.until());
    waiters = waiters.filter((waiter) => !ready.includes(waiter));
    for (const waiter of ready) {
      if (failure) waiter.reject(failure);
      else waiter.resolve();
    }
  };
  const fail = (error: Error) => {
    failure ??= error;
    wake();
  };
  const waitUntil = (until: () => boolean) =>
    failure
      ? Promise.reject(failure)
      : until()
        ? Promise.resolve()
        : new Promise<void>((resolve, reject) => waiters.push({ resolve, reject, until }));

  let aborting = false;
  const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));

  worker.on('message', (message: WriterMessage) => {
    if ('stored' in message) {
      // One worker stores chunks one at a time, so they are stored in the order sent.
      if (message.stored !== inFlight[0]?.firstId) fail(new Error("The import's writer stored chunks out of order."));
      inFlight.shift();
      if (message.toSend > 0 && onToSend) {
        onToSend();
        onToSend = undefined;
      }
    } else if ('closed' in message) closed = true;
    else fail(failureError(message.failed));
    wake();
  });
  worker.on('error', (error) => fail(error));
  worker.on('exit', (code) => {
    if (aborting) fail(new Error("The import's writer was stopped."));
    else if (!closed) fail(new Error(`The import's writer stopped (exit code ${code}) before the list was stored.`));
  });

  return {
    write(chunk) {
      if (failure) throw failure;
      // The keys stay readable here: `keys` is a string, and `keyEnds` is copied, not handed over.
      inFlight.push(chunk);
      worker.postMessage(chunk, transferablesOf(chunk));
      if (inFlight.length >= maxInFlight) return waitUntil(() => inFlight.length < maxInFlight);
    },
    keyOf(id) {
      for (const chunk of inFlight) {
        const key = packedKeyOf(chunk, id);
        if (key !== undefined) return key;
      }
      return undefined;
    },
    async close() {
      await waitUntil(() => inFlight.length === 0);
      worker.postMessage('close');
      await waitUntil(() => closed);
    },
    async abort() {
      aborting = true;
      // Asked to close rather than terminated: it ends between two transactions, never inside one, so its
      // connection holds no lock when the list is cleared. Terminated only if it does not end in time.
      worker.postMessage('close');
      const timer = setTimeout(() => void worker.terminate(), abortGraceMs);
      await exited;
      clearTimeout(timer);
    },
  };
}
