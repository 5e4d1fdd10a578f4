// Which address a cell is, in O(1) per row while a list of millions streams in. SQLite holds every
// address (the list store); this index only remembers a 32-bit fingerprint of each key and the id it
// got, 8 bytes a slot in typed arrays, so finding a duplicate never costs a random B-tree write. A
// fingerprint match is only a candidate: the caller confirms it against the stored key, so two
// different addresses that happen to share a fingerprint are never merged. Ten million addresses hold
// some ten thousand such pairs; each costs one more look at the store, a few milliseconds in all.
import { finalise32, fnv1a } from './text-hash.ts';

/**
 * How full the table may get before it doubles. Linear probing at 0.7 still finds a key in about two
 * looks; a fuller table is smaller, and for ten million addresses the difference is hundreds of megabytes.
 */
const maxLoad = 0.7;
/** Ids live in an Int32Array, where 0 marks a free slot. */
export const maxIndexId = 0x7fffffff;

/** The key's hash, mixed so the low bits that pick a slot are as good as the high. */
const fingerprint = (key: string): number => finalise32(fnv1a(key));

export type AddressIndex = {
  /**
   * The id stored for `key`, or the id `create()` returns for a new one. `sameKey(id)` says whether the
   * address stored under a candidate id really is `key`.
   */
  idFor(
    key: string,
    sameKey: (id: number, key: string) => boolean,
    create: () => number,
  ): { id: number; created: boolean };
  /** The id stored for `key`, or undefined; `sameKey` as for `idFor`. */
  find(key: string, sameKey: (id: number, key: string) => boolean): number | undefined;
  /** Records an id known to hold `key` (rebuilding the index from the store). */
  add(key: string, id: number): void;
  readonly size: number;
};

export function createAddressIndex(expected = 1024): AddressIndex {
  let capacity = 1 << Math.max(10, Math.ceil(Math.log2(expected / maxLoad)));
  let fingerprints = new Uint32Array(capacity);
  let ids = new Int32Array(capacity);
  let size = 0;

  function place(print: number, id: number) {
    let slot = print & (capacity - 1);
    while (ids[slot] !== 0) slot = (slot + 1) & (capacity - 1);
    fingerprints[slot] = print;
    ids[slot] = id;
  }

  function grow() {
    const [oldPrints, oldIds] = [fingerprints, ids];
    capacity *= 2;
    fingerprints = new Uint32Array(capacity);
    ids = new Int32Array(capacity);
    for (let slot = 0; slot < oldIds.length; slot += 1) {
      if (oldIds[slot] !== 0) place(oldPrints[slot]!, oldIds[slot]!);
    }
  }

  function insert(print: number, id: number) {
    if (!Number.isInteger(id) || id < 1 || id > maxIndexId)
      throw new RangeError(`An address index holds ids from 1 to ${maxIndexId}, not ${id}.`);
    if (size + 1 > capacity * maxLoad) grow();
    place(print, id);
    size += 1;
  }

  /** The id stored for `key` that `sameKey` confirms, probing on past a candidate it does not. */
  function lookup(print: number, key: string, sameKey: (id: number, key: string) => boolean): number | undefined {
    for (let slot = print & (capacity - 1); ids[slot] !== 0; slot = (slot + 1) & (capacity - 1)) {
      if (fingerprints[slot] === print && sameKey(ids[slot]!, key)) return ids[slot]!;
    }
    return undefined;
  }

  return {
    idFor(key, sameKey, create) {
      const print = fingerprint(key);
      const found = lookup(print, key, sameKey);
      if (found !== undefined) return { id: found, created: false };
      const id = create();
      insert(print, id);
      return { id, created: true };
    },
    find(key, sameKey) {
      return lookup(fingerprint(key), key, sameKey);
    },
    add(key, id) {
      insert(fingerprint(key), id);
    },
    get size() {
      return size;
    },
  };
}
