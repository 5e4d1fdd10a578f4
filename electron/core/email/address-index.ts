// Which address a cell is, in O(1) per row while a list of millions streams in. SQLite holds every
// address (the list store); this index only remembers a 64-bit fingerprint of each key and the id it
// got, 12 bytes a slot in typed arrays, so finding a duplicate never costs a random B-tree write. A
// fingerprint match is only a candidate: the caller confirms it against the stored key, so two
// different addresses that happen to share a fingerprint are never merged.

const maxLoad = 0.5;

/** Two independent 32-bit FNV-1a style hashes of a key. */
function fingerprint(key: string): [number, number] {
  let a = 0x811c9dc5;
  let b = 0x01000193 ^ key.length;
  for (let i = 0; i < key.length; i += 1) {
    const code = key.charCodeAt(i);
    a = Math.imul(a ^ code, 0x01000193);
    b = Math.imul(b ^ code, 0x5bd1e995);
    b ^= b >>> 15;
  }
  return [a >>> 0, (b | 1) >>> 0]; // `| 1`: a stored second hash is never 0, which marks a free slot
}

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
  let first = new Uint32Array(capacity);
  let second = new Uint32Array(capacity);
  let ids = new Int32Array(capacity);
  let size = 0;

  function place(a: number, b: number, id: number) {
    let slot = a & (capacity - 1);
    while (second[slot] !== 0) slot = (slot + 1) & (capacity - 1);
    first[slot] = a;
    second[slot] = b;
    ids[slot] = id;
  }

  function grow() {
    const [oldFirst, oldSecond, oldIds] = [first, second, ids];
    capacity *= 2;
    first = new Uint32Array(capacity);
    second = new Uint32Array(capacity);
    ids = new Int32Array(capacity);
    for (let slot = 0; slot < oldIds.length; slot += 1) {
      if (oldSecond[slot] !== 0) place(oldFirst[slot]!, oldSecond[slot]!, oldIds[slot]!);
    }
  }

  function insert(a: number, b: number, id: number) {
    if (size + 1 > capacity * maxLoad) grow();
    place(a, b, id);
    size += 1;
  }

  return {
    idFor(key, sameKey, create) {
      const [a, b] = fingerprint(key);
      // Every stored id with this fingerprint is a candidate; probing goes on past a false match.
      for (let slot = a & (capacity - 1); second[slot] !== 0; slot = (slot + 1) & (capacity - 1)) {
        if (first[slot] === a && second[slot] === b && sameKey(ids[slot]!, key))
          return { id: ids[slot]!, created: false };
      }
      const id = create();
      insert(a, b, id);
      return { id, created: true };
    },
    find(key, sameKey) {
      const [a, b] = fingerprint(key);
      for (let slot = a & (capacity - 1); second[slot] !== 0; slot = (slot + 1) & (capacity - 1)) {
        if (first[slot] === a && second[slot] === b && sameKey(ids[slot]!, key)) return ids[slot]!;
      }
      return undefined;
    },
    add(key, id) {
      const [a, b] = fingerprint(key);
      insert(a, b, id);
    },
    get size() {
      return size;
    },
  };
}
