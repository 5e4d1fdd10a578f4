// The import's writer thread (import-writer.ts): stores each packed chunk of a list in its own
// transaction, on its own connection to the job's list file, and says when each is stored. After a
// failure it stores nothing more: the import is then started over from the file.
import { parentPort, workerData } from 'node:worker_threads';
import { unpackChunk, type PackedChunk } from './import-chunks.ts';
import { describeFailure } from '../job-threads.ts';
import { openListAppender } from '../store/list-store-append.ts';
import { cacheLookupFor, type CacheAsk, type CacheHit } from '../../cache/cache-lookup.ts';
import type { WriterMessage } from './import-writer.ts';

const port = parentPort!;
const post = (message: WriterMessage) => port.postMessage(message);
let failed = false;
/** A verdict the cache gave to reuse (one too old, kept only as history, is not). */
const reused = (hit: CacheHit | undefined) => hit !== undefined && !hit.stale;

try {
  const { listPath, cache } = workerData as { listPath: string; cache?: CacheAsk };
  const list = openListAppender(listPath);
  const lookup = cache ? cacheLookupFor(cache) : undefined;
  list.beginBulk();
  port.on('message', (chunk: PackedChunk | 'close') => {
    if (chunk === 'close') {
      try {
        list.endBulk();
        list.close();
        lookup?.close();
        post({ closed: true });
      } catch (error) {
        post({ failed: describeFailure(error) });
      } finally {
        port.close();
      }
      return;
    }
    if (failed) return;
    try {
      const addresses = unpackChunk(chunk);
      const hits = lookup?.hitsFor(addresses);
      list.appendImport(addresses, chunk.firstRow, chunk.rowIds, hits);
      let toSend = 0;
      // A verdict reused is not sent; one too old to reuse (kept only as history) is.
      for (let i = 0; i < addresses.length; i += 1) if (addresses[i]!.sendable && !reused(hits?.[i])) toSend += 1;
      post({ stored: chunk.firstId, toSend });
    } catch (error) {
      failed = true;
      post({ failed: describeFailure(error) });
    }
  });
} catch (error) {
  post({ failed: describeFailure(error) });
}
