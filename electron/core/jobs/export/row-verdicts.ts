// Each row of a job's list with its address's verdict, in row order: what the export writes beside the
// row's own cells. A thread of its own (verdict-reader-worker.ts) reads the list a chunk of rows at a
// time, with the verdicts of the addresses each chunk introduces and repeats, a few chunks ahead of the
// rows being written. Ids were given in order of first appearance, so a row is its address's first
// exactly when its id is higher than every id before it: no column of the store says which row came first.
import { failureError } from '../job-threads.ts';
import { startThread } from '../../own-files.ts';
import { verdictFlag, type VerdictColumns } from '../store/list-types.ts';
import { createVerdictUnpacker, type VerdictChunk } from './verdict-chunks.ts';
import type { ReaderMessage, ReaderRequest } from './verdict-reader-worker.ts';

export const column = { result: 0, flags: 1, reason: 2, suggestion: 3, cachedOn: 4 } as const;

/** Whether an address has a flag: billed, role, disposable, or accepted (the person took the typo suggestion). */
export const hasFlag = (address: VerdictColumns, flag: keyof typeof verdictFlag) =>
  (address[column.flags] & verdictFlag[flag]) !== 0;

/** A row's address (null: the row has none) and whether an earlier row had it first. */
export type RowVerdict = { address: VerdictColumns | null; duplicate: boolean };

/** Chunks read ahead of the rows being written. */
const chunksAhead = 4;
/** How long the reader has to close its connection before it is terminated. */
const closeGraceMs = 5_000;

/** Each row's verdict, in row order, read a few chunks ahead on a thread of its own. */
export type RowVerdicts = {
  /** A promise when row `row`'s chunk has not arrived yet (wait for it before `next`); undefined when it has. */
  readyFor(row: number): Promise<void> | undefined;
  /** The verdict of row `row`; rows are asked for every one, in order. */
  next(row: number): RowVerdict | undefined;
  close(): Promise<void>;
};

export function createRowVerdicts(listPath: string): RowVerdicts {
  const worker = startThread(import.meta.url, 'verdict-reader-worker', { workerData: { listPath } });
  const unpacker = createVerdictUnpacker();
  const arrived: VerdictChunk[] = [];
  let ended = false;
  let failure: Error | null = null;
  const waiting: { resolve: () => void; reject: (error: Error) => void }[] = [];
  const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
  const request = (message: ReaderRequest) => worker.postMessage(message);

  const settle = () => {
    for (const waiter of waiting.splice(0)) {
      if (failure) waiter.reject(failure);
      else waiter.resolve();
    }
  };
  worker.on('message', (message: ReaderMessage) => {
    if ('chunk' in message) arrived.push(message.chunk);
    else if ('done' in message) ended = true;
    else if ('failed' in message) failure ??= failureError(message.failed);
    if (!('closed' in message)) settle();
  });
  worker.on('error', (error) => {
    failure ??= error;
    settle();
  });
  worker.on('exit', () => {
    failure ??= new Error('The list reader stopped before the last row.');
    settle();
  });
  request({ more: chunksAhead });

  let ids: Int32Array = new Int32Array(0);
  let firstRow = 1;
  let introduced: VerdictColumns[] = [];
  let firstIntroduced = 1;
  let repeats = new Map<number, VerdictColumns>();
  /** The highest id of the rows read so far: a row with an id up to it repeats an earlier row's address. */
  let highestSeen = 0;
  let lastRow = 0;
  const verdict: RowVerdict = { address: null, duplicate: false };

  function load(): boolean {
    const chunk = arrived.shift();
    if (!chunk) {
      // Past the last chunk is past the rows imported, whatever became of the reader since.
      if (ended) return false;
      if (failure) throw failure;
      throw new Error('Row verdicts were asked for before their chunk arrived: wait for readyFor(row) first.');
    }
    request({ more: 1 });
    ({ ids, firstRow, firstIntroduced } = chunk);
    unpacker.addWords(chunk.words);
    introduced = unpacker.unpack(chunk.introduced);
    const repeated = unpacker.unpack(chunk.repeats);
    repeats = new Map(Array.from(chunk.repeatIds, (id, i) => [id, repeated[i]!]));
    return true;
  }

  return {
    /**
     * Resolves when the verdict of row `row` can be read (undefined: it can now). Asked before the first
     * row, and after each row for the next, so a row's cells are never held across a wait.
     */
    readyFor(row: number): Promise<void> | undefined {
      if (row - firstRow < ids.length || arrived.length > 0 || ended) return undefined;
      if (failure) return Promise.reject(failure);
      return new Promise<void>((resolve, reject) => waiting.push({ resolve, reject }));
    },

    /**
     * The verdict for row `row` (1-based; every row, in order: a duplicate is told by the rows before
     * it), or undefined past the rows imported. The same object comes back every time, filled in for the
     * row asked: read it before asking for the next.
     */
    next(row: number): RowVerdict | undefined {
      if (row !== ++lastRow) throw new Error(`Row verdicts are read in order: row ${lastRow} next, not ${row}.`);
      if (row - firstRow >= ids.length && !load()) return undefined;
      const id = ids[row - firstRow];
      if (id === undefined) return undefined;
      verdict.address = id === 0 ? null : id >= firstIntroduced ? introduced[id - firstIntroduced]! : repeats.get(id)!;
      verdict.duplicate = id !== 0 && id <= highestSeen;
      if (id > highestSeen) highestSeen = id;
      return verdict;
    },

    /** Ends the reader thread; the verdicts read so far stay readable. */
    async close(): Promise<void> {
      failure ??= new Error('The list reader was closed.');
      request('close');
      // It only reads: terminated if it does not end in time, nothing is lost.
      const timer = setTimeout(() => void worker.terminate(), closeGraceMs);
      await exited;
      clearTimeout(timer);
    },
  };
}
