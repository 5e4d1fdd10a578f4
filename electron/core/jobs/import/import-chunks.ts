// The new addresses of a run of rows, packed for the import's writer thread (import-writer.ts): a few
// strings and typed arrays cross to another thread as copies of memory, where four thousand objects
// would each be serialised on the importing thread, the one the import waits on.
import { ruleActions } from '../../../common/domain-rules.ts';
import type { NewAddress } from '../store/index.ts';

const flag = {
  sendable: 1,
  role: 2,
  disposable: 4,
  ownAddress: 8,
  suggestion: 16,
  suppressedAddress: 32,
  suppressedDomain: 64,
  /** A rule decided it; its action's place in ruleActions is in the bits above. */
  ruled: 128,
} as const;
const ruleShift = 8;

export type PackedChunk = {
  /** The row chunk: its first row and the address id of each of its rows (0: no address). */
  firstRow: number;
  rowIds: Int32Array;
  /** The new addresses' ids run from `firstId`, one after another. */
  firstId: number;
  count: number;
  /** Every new key, end to end; key `i` ends at `keyEnds[i]`. */
  keys: string;
  keyEnds: Int32Array;
  firstRows: Int32Array;
  flags: Uint16Array;
  /** In order, each address that differs from its key and each suggestion, end to end. */
  texts: string;
  textEnds: Int32Array;
};

/** Collects a chunk's new addresses until `take` packs them. */
export function createChunkPacker() {
  let keys: string[] = [];
  let texts: string[] = [];
  let firstRows: number[] = [];
  let flags: number[] = [];
  let firstId = 0;

  const ends = (parts: readonly string[]) => {
    const result = new Int32Array(parts.length);
    let end = 0;
    for (let i = 0; i < parts.length; i += 1) result[i] = end += parts[i]!.length;
    return result;
  };

  const packer = {
    add(address: NewAddress): void {
      if (keys.length === 0) firstId = address.id;
      keys.push(address.key);
      firstRows.push(address.firstRow);
      let bits = (address.sendable ? flag.sendable : 0) | (address.role ? flag.role : 0);
      if (address.disposable) bits |= flag.disposable;
      if (address.suppressed) bits |= address.suppressed === 'address' ? flag.suppressedAddress : flag.suppressedDomain;
      if (address.ruled) bits |= flag.ruled | (ruleActions.indexOf(address.ruled) << ruleShift);
      if (address.address !== address.key) {
        bits |= flag.ownAddress;
        texts.push(address.address);
      }
      if (address.suggestion !== null) {
        bits |= flag.suggestion;
        texts.push(address.suggestion);
      }
      flags.push(bits);
    },

    /** The key of an address added since the last `take`, or undefined. */
    keyOf: (id: number): string | undefined => (id >= firstId ? keys[id - firstId] : undefined),

    /** Forgets what was added (the import starts over). */
    clear(): void {
      [keys, texts, firstRows, flags, firstId] = [[], [], [], [], 0];
    },

    take(firstRow: number, rowIds: Int32Array): PackedChunk {
      const chunk: PackedChunk = {
        firstRow,
        rowIds,
        firstId,
        count: keys.length,
        keys: keys.join(''),
        keyEnds: ends(keys),
        firstRows: Int32Array.from(firstRows),
        flags: Uint16Array.from(flags),
        texts: texts.join(''),
        textEnds: ends(texts),
      };
      packer.clear();
      return chunk;
    },
  };
  return packer;
}

/** What stays readable of a chunk once it is sent: its keys. */
export type SentKeys = Pick<PackedChunk, 'firstId' | 'count' | 'keys' | 'keyEnds'>;

/** The key of address `id` in a packed chunk, or undefined when the chunk does not hold it. */
export function packedKeyOf(chunk: SentKeys, id: number): string | undefined {
  const i = id - chunk.firstId;
  if (i < 0 || i >= chunk.count) return undefined;
  return chunk.keys.slice(i === 0 ? 0 : chunk.keyEnds[i - 1], chunk.keyEnds[i]);
}

/** The memory of a chunk's arrays handed over to the writer thread rather than copied (all but the keys'). */
export const transferablesOf = (chunk: PackedChunk): ArrayBuffer[] =>
  [chunk.rowIds, chunk.firstRows, chunk.flags, chunk.textEnds].map((array) => array.buffer as ArrayBuffer);

export function unpackChunk(chunk: PackedChunk): NewAddress[] {
  const addresses: NewAddress[] = [];
  let keyStart = 0;
  let text = 0;
  let textStart = 0;
  const nextText = () => {
    const value = chunk.texts.slice(textStart, chunk.textEnds[text]);
    textStart = chunk.textEnds[text++]!;
    return value;
  };
  for (let i = 0; i < chunk.count; i += 1) {
    const key = chunk.keys.slice(keyStart, chunk.keyEnds[i]);
    keyStart = chunk.keyEnds[i]!;
    const bits = chunk.flags[i]!;
    const address = bits & flag.ownAddress ? nextText() : key;
    addresses.push({
      id: chunk.firstId + i,
      key,
      address,
      firstRow: chunk.firstRows[i]!,
      sendable: (bits & flag.sendable) !== 0,
      role: (bits & flag.role) !== 0,
      disposable: (bits & flag.disposable) !== 0,
      suggestion: bits & flag.suggestion ? nextText() : null,
      ...(bits & flag.suppressedAddress ? { suppressed: 'address' as const } : {}),
      ...(bits & flag.suppressedDomain ? { suppressed: 'domain' as const } : {}),
      ...(bits & flag.ruled ? { ruled: ruleActions[bits >> ruleShift]! } : {}),
    });
  }
  return addresses;
}
