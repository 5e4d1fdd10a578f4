// The in-memory table of reusable verdicts: every key it was given is found with its kind, keys it was not
// given are not (even those sharing a bucket or the first 32 bits), at both ends of the key space; and
// keys given out of order are refused, so the import asks SQLite instead.
import { describe, expect, it } from 'vitest';
import { verdictTableBuilder } from '../../../../electron/core/cache/verdict-table.ts';

const hex = (value: bigint) => value.toString(16).padStart(32, '0');
/** Keys spread over the whole space, the ends included, sorted as SQLite gives them. */
const keys = [
  0n,
  1n << 64n,
  ...Array.from({ length: 3000 }, (_, i) => (BigInt(i * 7919 + 13) * (1n << 115n)) / 3001n + BigInt(i)),
  (1n << 128n) - 1n,
]
  .map(hex)
  .sort();

function load(all: readonly string[], runs = 4) {
  const builder = verdictTableBuilder(all.length);
  const per = Math.ceil(all.length / runs);
  for (let at = 0; at < all.length; at += per) {
    const run = all.slice(at, at + per);
    builder.add(run.map((key) => key.slice(0, 16)).join(''), run.map((_, i) => String((at + i) % 7)).join(','));
  }
  return builder.done();
}

describe('the table of reusable verdicts', () => {
  it('finds every key it holds, with its kind', () => {
    const table = load(keys)!;
    expect(table.size).toBe(keys.length);
    keys.forEach((key, i) => expect(table.kindOf(key), key).toBe(i % 7));
  });

  it('finds no key it does not hold, even one that shares its first 32 bits', () => {
    const table = load(keys)!;
    const near = keys.flatMap((key) => [
      `${key.slice(0, 8)}${(parseInt(key.slice(8, 16), 16) ^ 1).toString(16).padStart(8, '0')}${key.slice(16)}`,
      `${((parseInt(key.slice(0, 8), 16) + 1) >>> 0).toString(16).padStart(8, '0')}${key.slice(8)}`,
    ]);
    for (const key of near.filter((candidate) => !keys.includes(candidate))) expect(table.kindOf(key), key).toBe(-1);
    expect(load([])!.kindOf(keys[5]!)).toBe(-1);
  });

  it('refuses keys out of order or twice', () => {
    expect(load([keys[2]!, keys[1]!, keys[3]!], 1)).toBeUndefined();
    expect(load([keys[1]!, keys[1]!], 1)).toBeUndefined();
  });
});
