// Reads a page of a bounce mailbox's messages on threads of their own (bounce-parse-worker.ts), in order:
// each thread takes a share of the page, sent as one buffer rather than a copy per message.
import { availableParallelism } from 'node:os';
import type { Worker } from 'node:worker_threads';
import { startThread } from '../own-files.ts';
import type { MessageRead } from './bounce-message.ts';

export type BounceParser = {
  read(raws: readonly Uint8Array[]): Promise<MessageRead[]>;
  close(): Promise<void>;
};

type Waiting = { resolve: (reads: MessageRead[]) => void; reject: (error: Error) => void };

function parseThread() {
  const worker: Worker = startThread(import.meta.url, 'bounce-parse-worker', {
    // A small young generation: a page's parts are short-lived, and their bytes (buffers, outside the heap) go with them.
    resourceLimits: { maxYoungGenerationSizeMb: 4, maxOldGenerationSizeMb: 64 },
  });
  const waiting = new Map<number, Waiting>();
  let next = 0;
  const failAll = (error: Error) => {
    for (const { reject } of waiting.values()) reject(error);
    waiting.clear();
  };
  worker.on('message', ({ id, reads }: { id: number; reads: MessageRead[] }) => {
    waiting.get(id)?.resolve(reads);
    waiting.delete(id);
  });
  worker.on('error', failAll);
  worker.on('exit', (code) => failAll(new Error(`The bounce reader's thread stopped (exit code ${code}).`)));
  return {
    read(raws: readonly Uint8Array[]): Promise<MessageRead[]> {
      const bytes = new Uint8Array(raws.reduce((sum, raw) => sum + raw.length, 0));
      let at = 0;
      for (const raw of raws) {
        bytes.set(raw, at);
        at += raw.length;
      }
      const id = next++;
      const done = new Promise<MessageRead[]>((resolve, reject) => waiting.set(id, { resolve, reject }));
      worker.postMessage({ id, bytes: bytes.buffer, lengths: raws.map((raw) => raw.length) }, [bytes.buffer]);
      return done;
    },
    close: () => worker.terminate().then(() => undefined),
  };
}

/** As many threads as cores, up to two: parsing is most of a read's work, and the server and this thread need a share. */
export function startBounceParser(threads = Math.min(2, availableParallelism())): BounceParser {
  const pool = Array.from({ length: threads }, parseThread);
  return {
    async read(raws) {
      const share = Math.ceil(raws.length / pool.length);
      const parts = await Promise.all(pool.map((thread, i) => thread.read(raws.slice(i * share, (i + 1) * share))));
      return parts.flat();
    },
    async close() {
      await Promise.all(pool.map((thread) => thread.close()));
    },
  };
}
