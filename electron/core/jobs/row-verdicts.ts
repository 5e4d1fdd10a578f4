// Each row of a job's list with its address's verdict, in row order: what the export writes beside the
// row's own cells. Reads the list a chunk of rows at a time: the addresses a chunk introduces are one
// range of ids, fetched in one query; a repeat of an earlier address is one lookup (the recent ones kept).
// Ids were given in order of first appearance, so a row is its address's first exactly when its id is
// higher than every id before it: no column of the store needs to say which row came first.
import { verdictFlag, type ListStore, type VerdictColumns } from './list-store.ts';

export const column = { result: 0, flags: 1, reason: 2, suggestion: 3 } as const;

/** Whether an address has a flag: billed, role, disposable, or accepted (the person took the typo suggestion). */
export const hasFlag = (address: VerdictColumns, flag: keyof typeof verdictFlag) =>
  (address[column.flags] & verdictFlag[flag]) !== 0;

/** A row's address (null: the row has none) and whether an earlier row had it first. */
export type RowVerdict = { address: VerdictColumns | null; duplicate: boolean };

const recentRepeats = 10_000;

export function createRowVerdicts(list: ListStore) {
  const chunks = list.rowChunks();
  let ids: Int32Array = new Int32Array(0);
  let firstRow = 1;
  let introduced: VerdictColumns[] = [];
  let firstIntroduced = 1;
  let highestId = 0;
  /** The highest id of the rows read so far: a row with an id up to it repeats an earlier row's address. */
  let highestSeen = 0;
  let lastRow = 0;
  const repeats = new Map<number, VerdictColumns>();
  const verdict: RowVerdict = { address: null, duplicate: false };

  function load(): boolean {
    const next = chunks.next();
    if (next.done) return false;
    ({ addressIds: ids, firstRow } = next.value);
    let top = highestId;
    for (const id of ids) if (id > top) top = id;
    firstIntroduced = highestId + 1;
    introduced = top > highestId ? list.verdictsBetween(firstIntroduced, top) : [];
    highestId = top;
    return true;
  }

  function repeated(id: number): VerdictColumns {
    let address = repeats.get(id);
    if (!address) {
      address = list.verdictsBetween(id, id)[0]!;
      if (repeats.size >= recentRepeats) repeats.clear();
      repeats.set(id, address);
    }
    return address;
  }

  return {
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
      verdict.address = id === 0 ? null : id >= firstIntroduced ? introduced[id - firstIntroduced]! : repeated(id);
      verdict.duplicate = id !== 0 && id <= highestSeen;
      if (id > highestSeen) highestSeen = id;
      return verdict;
    },
  };
}
