// Each row of a job's list with its address's verdict, in row order: what the export writes beside the
// row's own cells. Reads the list a chunk of rows at a time: the addresses a chunk introduces are one
// range of ids, fetched in one query; a repeat of an earlier address is one lookup.
import type { AddressRecord, ListStore } from './list-store.ts';

export type RowVerdict = {
  result: string;
  billed: boolean;
  duplicate: boolean;
  role: boolean;
  disposable: boolean;
  reason: string;
  suggestion: string;
};

const noAddress: RowVerdict = {
  result: 'invalid',
  billed: false,
  duplicate: false,
  role: false,
  disposable: false,
  reason: 'no_address',
  suggestion: '',
};

function verdictOf(address: AddressRecord, row: number): RowVerdict {
  return {
    result: address.result ?? 'unverified',
    billed: address.billed,
    duplicate: address.firstRow !== row,
    role: address.role,
    disposable: address.disposable,
    reason: address.reason ?? '',
    suggestion: address.suggestion ?? '',
  };
}

export function createRowVerdicts(list: ListStore) {
  const chunks = list.rowChunks();
  let ids: Int32Array = new Int32Array(0);
  let firstRow = 1;
  let known = new Map<number, AddressRecord>();
  let highestId = 0;

  function load(): boolean {
    const next = chunks.next();
    if (next.done) return false;
    ({ addressIds: ids, firstRow } = next.value);
    let top = highestId;
    for (const id of ids) if (id > top) top = id;
    known = new Map();
    if (top > highestId)
      for (const address of list.addressesBetween(highestId + 1, top)) known.set(address.id, address);
    highestId = top;
    return true;
  }

  return {
    /** The verdict for row `row` (1-based, asked in order), or undefined past the rows imported. */
    next(row: number): RowVerdict | undefined {
      if (row - firstRow >= ids.length && !load()) return undefined;
      const id = ids[row - firstRow];
      if (id === undefined) return undefined;
      if (id === 0) return noAddress;
      let address = known.get(id);
      if (!address) {
        address = list.address(id)!;
        known.set(id, address);
      }
      return verdictOf(address, row);
    },
  };
}
