// The export's reader thread (row-verdicts.ts): reads a job's rows chunk by chunk with the verdicts of
// the addresses each chunk introduces and repeats, packs them, and sends them ahead of the rows being
// written, as far as the writing side has room for.
import { parentPort, workerData } from 'node:worker_threads';
import { describeFailure, type ThreadFailure } from '../job-threads.ts';
import { openListVerdicts } from '../store/list-store-verdicts.ts';
import type { VerdictColumns } from '../store/list-types.ts';
import { createVerdictPacker, verdictTransferables, type VerdictChunk } from './verdict-chunks.ts';

export type ReaderRequest = { more: number } | 'close';
export type ReaderMessage = { chunk: VerdictChunk } | { done: true } | { closed: true } | { failed: ThreadFailure };

/** Repeats of earlier addresses kept at hand; a list's repeats are mostly of recent rows. */
const recentRepeats = 10_000;

const port = parentPort!;
const post = (message: ReaderMessage, transfer: ArrayBuffer[] = []) => port.postMessage(message, transfer);

try {
  const list = openListVerdicts((workerData as { listPath: string }).listPath);
  const chunks = list.rowChunks();
  const packer = createVerdictPacker();
  const repeats = new Map<number, VerdictColumns>();
  let highestId = 0;
  let credit = 0;
  let done = false;

  const repeated = (id: number) => {
    let verdict = repeats.get(id);
    if (!verdict) {
      verdict = list.verdictsBetween(id, id)[0]!;
      if (repeats.size >= recentRepeats) repeats.clear();
      repeats.set(id, verdict);
    }
    return verdict;
  };

  const sendAhead = () => {
    for (; credit > 0 && !done; credit -= 1) {
      const next = chunks.next();
      if (next.done) {
        done = true;
        post({ done: true });
        break;
      }
      const { firstRow, addressIds: ids } = next.value;
      let top = highestId;
      const repeatIds: number[] = [];
      for (const id of ids) {
        if (id > top) top = id;
        else if (id !== 0 && id <= highestId) repeatIds.push(id);
      }
      const firstIntroduced = highestId + 1;
      const introduced = packer.pack(top > highestId ? list.verdictsBetween(firstIntroduced, top) : []);
      highestId = top;
      const distinctRepeats = Int32Array.from(new Set(repeatIds));
      const chunk: VerdictChunk = {
        firstRow,
        ids,
        firstIntroduced,
        introduced,
        repeatIds: distinctRepeats,
        repeats: packer.pack(Array.from(distinctRepeats, repeated)),
        words: packer.takeWords(),
      };
      post({ chunk }, verdictTransferables(chunk));
    }
  };

  port.on('message', (request: ReaderRequest) => {
    if (request === 'close') {
      try {
        chunks.return(undefined);
        list.close();
        post({ closed: true });
      } finally {
        port.close();
      }
      return;
    }
    credit += request.more;
    try {
      sendAhead();
    } catch (error) {
      post({ failed: describeFailure(error) });
      done = true;
    }
  });
} catch (error) {
  post({ failed: describeFailure(error) });
}
