// The verdicts an import may reuse, held in memory while a large list is read: the first 64 bits of each
// key, in key order, with the number of its kind of verdict. A key is found by its top 16 bits, which name
// a short run of keys, then a binary search in that run: a tenth of a microsecond, where asking SQLite
// key by key costs a few. 64 bits tell keys apart: among ten million kept and ten million asked, the
// chance that any two differ only past them is about one in two hundred thousand.

/** Keys found by their top bits: one run of keys per bucket. */
const bucketBits = 16;

export type VerdictTable = {
  /** The number of the kind of verdict held for a key, or -1 when none is held. */
  kindOf(key: string): number;
  readonly size: number;
};

/** Builds a table from keys given in order, a run at a time; answers undefined when they are not in order. */
export function verdictTableBuilder(capacity: number) {
  const high = new Uint32Array(capacity);
  const low = new Uint32Array(capacity);
  const kinds = new Uint32Array(capacity);
  const starts = new Uint32Array((1 << bucketBits) + 1);
  let size = 0;
  let ordered = true;
  return {
    /**
     * Adds a run: `keys` is the first 16 hex digits of each key, one after the other; `kindList` their kinds' numbers,
     * comma-separated (as SQLite's group_concat gives them).
     */
    add(keys: string, kindList: string): void {
      const bytes = Buffer.from(keys, 'hex');
      const count = bytes.length / 8;
      if (size + count > capacity) throw new Error('more verdicts than counted');
      let at = 0;
      for (let i = 0; i < count; i += 1) {
        let kind = 0;
        for (let code = kindList.charCodeAt(at); code >= 48 && code <= 57; code = kindList.charCodeAt(++at))
          kind = kind * 10 + code - 48;
        at += 1; // the comma
        const hi = bytes.readUInt32BE(i * 8);
        const lo = bytes.readUInt32BE(i * 8 + 4);
        if (size > 0 && (hi < high[size - 1]! || (hi === high[size - 1]! && lo <= low[size - 1]!))) ordered = false;
        high[size] = hi;
        low[size] = lo;
        kinds[size] = kind;
        size += 1;
      }
    },
    done(): VerdictTable | undefined {
      if (!ordered) return undefined;
      // starts[b] is the first key whose top bits are b or more.
      let key = 0;
      for (let bucket = 0; bucket <= 1 << bucketBits; bucket += 1) {
        while (key < size && high[key]! >>> (32 - bucketBits) < bucket) key += 1;
        starts[bucket] = key;
      }
      return {
        size,
        kindOf(hexKey) {
          const hi = parseInt(hexKey.slice(0, 8), 16);
          const lo = parseInt(hexKey.slice(8, 16), 16);
          const bucket = hi >>> (32 - bucketBits);
          let from = starts[bucket]!;
          let to = starts[bucket + 1]!;
          while (from < to) {
            const mid = (from + to) >>> 1;
            const midHi = high[mid]!;
            if (midHi < hi || (midHi === hi && low[mid]! < lo)) from = mid + 1;
            else to = mid;
          }
          return from < size && high[from] === hi && low[from] === lo ? kinds[from]! : -1;
        },
      };
    },
  };
}
