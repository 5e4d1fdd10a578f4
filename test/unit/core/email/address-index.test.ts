// The address index finds repeats in O(1) and never merges two addresses on a fingerprint alone.
import { describe, expect, it } from 'vitest';
import { createAddressIndex } from '../../../../electron/core/email/address-index.ts';

describe('address index', () => {
  it('gives each distinct key one id, however many times it comes, while it grows', () => {
    const index = createAddressIndex(16);
    const stored = new Map<number, string>();
    const sameKey = (id: number, key: string) => stored.get(id) === key;
    let next = 0;
    const idOf = (key: string) => {
      const { id, created } = index.idFor(key, sameKey, () => ++next);
      if (created) stored.set(id, key);
      return id;
    };
    const first = Array.from({ length: 50_000 }, (_, i) => idOf(`person${i}@host${i % 97}.example`));
    const again = Array.from({ length: 50_000 }, (_, i) => idOf(`person${i}@host${i % 97}.example`));
    expect(again).toEqual(first);
    expect(new Set(first).size).toBe(50_000);
    expect(index.size).toBe(50_000);
    expect(index.find('person49999@host44.example', sameKey)).toBe(50_000);
    expect(index.find('nobody@host.example', sameKey)).toBeUndefined();
  });

  it('keeps probing past a fingerprint match the store does not confirm', () => {
    const index = createAddressIndex();
    // The store says no to id 1: as if another address had the same fingerprint.
    const sameKey = (id: number) => id !== 1;
    expect(index.idFor('ann@example.com', sameKey, () => 1)).toEqual({ id: 1, created: true });
    expect(index.idFor('ann@example.com', sameKey, () => 2)).toEqual({ id: 2, created: true });
    expect(index.idFor('ann@example.com', sameKey, () => 3)).toEqual({ id: 2, created: false });
    expect(index.find('ann@example.com', sameKey)).toBe(2);
  });
});

describe('address index ids', () => {
  it('refuses an id it cannot hold: below 1 (a free slot) or past an Int32Array', () => {
    const index = createAddressIndex();
    for (const id of [0, -1, 2 ** 31, 1.5, Number.NaN])
      expect(() => index.add('ann@example.com', id)).toThrow(RangeError);
  });
});
