// The verdicts of a chunk of rows, packed by the export's reader thread (verdict-reader-worker.ts) for
// the thread that writes the files: numbers in typed arrays and each result or reason word once, so
// crossing threads copies memory instead of serialising a few thousand arrays of strings.
import type { VerdictColumns } from '../store/list-types.ts';

/** Word 0 is "none" (null); a word past the dictionary's bound travels inline, in `inline`. */
const inlineWord = 0xffff;
/** Set in `flags` when the address has a suggestion, which travels inline (above every verdictFlag). */
const hasSuggestion = 0x8000;

export type PackedVerdicts = {
  count: number;
  results: Uint16Array;
  reasons: Uint16Array;
  /** The day a verdict reused from the cache was got, as a word (most lists have a handful of days). */
  cachedOn: Uint16Array;
  flags: Uint16Array;
  /** In order, per address: its result and reason when inline, then its suggestion. */
  inline: string[];
};

export type VerdictChunk = {
  /** The row chunk: its first row and the address id of each of its rows (0: no address). */
  firstRow: number;
  ids: Int32Array;
  /** The addresses this chunk introduces, ids from `firstIntroduced` on, one after another. */
  firstIntroduced: number;
  introduced: PackedVerdicts;
  /** Earlier addresses the chunk's rows repeat. */
  repeatIds: Int32Array;
  repeats: PackedVerdicts;
  /** Words added to the dictionary since the last chunk, in the order of their numbers. */
  words: string[];
};

/** The reading side's words: each result and reason is given a number the first time it is seen. */
export function createVerdictPacker(maxWords = inlineWord - 1) {
  const numbers = new Map<string, number>();
  let words: string[] = [];
  const numberOf = (word: string | null, inline: string[]) => {
    if (word === null) return 0;
    let number = numbers.get(word);
    if (number === undefined) {
      if (numbers.size >= maxWords) {
        inline.push(word);
        return inlineWord;
      }
      numbers.set(word, (number = numbers.size + 1));
      words.push(word);
    }
    return number;
  };
  return {
    pack(verdicts: readonly VerdictColumns[]): PackedVerdicts {
      const count = verdicts.length;
      const packed: PackedVerdicts = {
        count,
        results: new Uint16Array(count),
        reasons: new Uint16Array(count),
        cachedOn: new Uint16Array(count),
        flags: new Uint16Array(count),
        inline: [],
      };
      for (let i = 0; i < count; i += 1) {
        const [result, flags, reason, suggestion, cachedOn] = verdicts[i]!;
        packed.results[i] = numberOf(result, packed.inline);
        packed.reasons[i] = numberOf(reason, packed.inline);
        packed.cachedOn[i] = numberOf(cachedOn, packed.inline);
        packed.flags[i] = flags | (suggestion === null ? 0 : hasSuggestion);
        if (suggestion !== null) packed.inline.push(suggestion);
      }
      return packed;
    },
    /** The words numbered since the last call. */
    takeWords(): string[] {
      const taken = words;
      words = [];
      return taken;
    },
  };
}

/** The memory of a chunk's arrays, handed over rather than copied. */
export const verdictTransferables = (chunk: VerdictChunk): ArrayBuffer[] =>
  [
    chunk.ids,
    chunk.repeatIds,
    ...[chunk.introduced, chunk.repeats].flatMap((p) => [p.results, p.reasons, p.cachedOn, p.flags]),
  ].map((array) => array.buffer as ArrayBuffer);

/** The writing side's words, numbered as the reading side numbered them. */
export function createVerdictUnpacker() {
  const dictionary: (string | null)[] = [null];
  return {
    /** A chunk's new words, once per chunk, before its verdicts are unpacked. */
    addWords(words: readonly string[]): void {
      for (const word of words) dictionary.push(word);
    },
    unpack(packed: PackedVerdicts): VerdictColumns[] {
      const verdicts: VerdictColumns[] = new Array(packed.count);
      let inline = 0;
      for (let i = 0; i < packed.count; i += 1) {
        const resultNumber = packed.results[i]!;
        const result = resultNumber === inlineWord ? packed.inline[inline++]! : dictionary[resultNumber]!;
        const reasonNumber = packed.reasons[i]!;
        const reason = reasonNumber === inlineWord ? packed.inline[inline++]! : dictionary[reasonNumber]!;
        const dayNumber = packed.cachedOn[i]!;
        const cachedOn = dayNumber === inlineWord ? packed.inline[inline++]! : dictionary[dayNumber]!;
        const flags = packed.flags[i]!;
        const suggestion = flags & hasSuggestion ? packed.inline[inline++]! : null;
        verdicts[i] = [result, flags & ~hasSuggestion, reason, suggestion, cachedOn];
      }
      return verdicts;
    },
  };
}
