// The address index's memory, read from the process's own figures: it holds the addresses it was sized for
// in 8 bytes a slot, without growing. A figure of the whole process, so it lives in the timing tier (run on
// its own, on an idle machine), never in npm test's shared workers.
import { describe, expect, it } from 'vitest';
import { createAddressIndex } from '../../../electron/core/email/address-index.ts';

describe('address index memory', () => {
  it('holds the addresses it was sized for in 8 bytes a slot, without growing', () => {
    const before = process.memoryUsage().arrayBuffers;
    const count = 300_000;
    const index = createAddressIndex(count);
    const allocated = process.memoryUsage().arrayBuffers - before;
    let next = 0;
    // Every key is new: the store is never asked, so no Map of the keys is needed.
    for (let i = 0; i < count; i += 1)
      index.idFor(
        `person${i}@host${i % 97}.example`,
        () => false,
        () => ++next,
      );
    expect(index.size).toBe(count);
    // 2^19 slots of 8 bytes: a table at most 0.7 full needs no more for 300,000 keys.
    expect(allocated).toBeLessThanOrEqual(2 ** 19 * 8);
    // Had it doubled, another 2^20 slots' worth would be in use (8 MB); other buffers come and go by far less.
    expect(process.memoryUsage().arrayBuffers - before).toBeLessThan(allocated + 2 ** 20);
  });
});
