// The import's writer thread: chunks packed here are stored there exactly as given, keys stay answerable
// until stored, and a writer that cannot write says so instead of losing rows quietly.
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createChunkPacker, packedKeyOf, unpackChunk } from '../../../../../electron/core/jobs/import/import-chunks.ts';
import { startImportWriter } from '../../../../../electron/core/jobs/import/import-writer.ts';
import { openListStore } from '../../../../../electron/core/jobs/store/list-store.ts';
import { type NewAddress } from '../../../../../electron/core/jobs/store/list-types.ts';
import { seededRandom } from '../../../../support/seeded-random.ts';

const dir = await mkdtemp(join(tmpdir(), 'sift-import-writer-'));

function randomAddresses(seed: number, count: number, firstId = 1): NewAddress[] {
  const random = seededRandom(seed);
  const pieces = ['ann', 'Bob', 'zoë', '"', ',', '\n', '@', 'example.com', '日本', ' '];
  const text = () =>
    Array.from({ length: Math.floor(random() * 6) }, () => pieces[Math.floor(random() * pieces.length)]).join('');
  return Array.from({ length: count }, (_, i) => {
    const key = text();
    return {
      id: firstId + i,
      key,
      address: random() < 0.5 ? key : text(),
      firstRow: 1 + Math.floor(random() * 1e6),
      sendable: random() < 0.8,
      role: random() < 0.2,
      disposable: random() < 0.2,
      suggestion: random() < 0.3 ? text() : null,
    };
  });
}

describe('packed import chunks', () => {
  it('unpack to the addresses packed, with every key readable by id', () => {
    for (let seed = 1; seed <= 20; seed += 1) {
      const addresses = randomAddresses(seed, seed * 7, seed * 100);
      const packer = createChunkPacker();
      for (const address of addresses) packer.add(address);
      for (const address of addresses) expect(packer.keyOf(address.id)).toBe(address.key);
      const chunk = packer.take(5, Int32Array.of(1, 2, 3));
      expect(unpackChunk(chunk)).toEqual(addresses);
      for (const address of addresses) expect(packedKeyOf(chunk, address.id)).toBe(address.key);
      expect(packedKeyOf(chunk, seed * 100 - 1)).toBeUndefined();
      expect(packedKeyOf(chunk, seed * 100 + addresses.length)).toBeUndefined();
      expect(packer.keyOf(seed * 100)).toBeUndefined();
    }
  });
});

describe('the import writer', () => {
  it('stores every chunk sent, in order, and answers keys of chunks still on their way', async () => {
    const path = join(dir, 'list.sqlite');
    const list = openListStore(path);
    const writer = startImportWriter(path);
    const packer = createChunkPacker();
    const sent: NewAddress[] = [];
    for (let chunk = 0; chunk < 12; chunk += 1) {
      const addresses = randomAddresses(chunk, 50, sent.length + 1);
      for (const address of addresses) packer.add(address);
      sent.push(...addresses);
      const ids = Int32Array.from(addresses, (address) => address.id);
      const first = addresses[0]!;
      const wait = writer.write(packer.take(first.id, ids));
      // No word from the worker can arrive before this line: the key is answered from the chunk sent.
      expect(writer.keyOf(first.id)).toBe(first.key);
      await wait;
    }
    await writer.close();
    expect(writer.keyOf(1)).toBeUndefined();
    const stored = list.addressesBetween(1, sent.length);
    expect(stored).toHaveLength(sent.length);
    for (let i = 0; i < sent.length; i += 1) expect(stored[i], `address ${i + 1}`).toMatchObject(sent[i]!);
    expect([...list.rowChunks()].map((chunk) => chunk.firstRow)).toEqual(
      sent.filter((_, i) => i % 50 === 0).map((a) => a.id),
    );
    list.close();
  });

  it('stops between chunks when the import is abandoned, leaving the list free to clear', async () => {
    const path = join(dir, 'abandoned.sqlite');
    const list = openListStore(path);
    const writer = startImportWriter(path);
    const packer = createChunkPacker();
    for (let chunk = 0; chunk < 4; chunk += 1) {
      for (const address of randomAddresses(chunk, 2000, chunk * 2000 + 1)) packer.add(address);
      void writer.write(packer.take(chunk * 2000 + 1, new Int32Array(2000)))?.catch(() => {});
    }
    await writer.abort();
    expect(() => writer.write(packer.take(1, new Int32Array(0)))).toThrow(/stopped/);
    // No lock left behind: a clear on another connection does not wait for the busy timeout and fail.
    list.clear();
    expect(list.addressesBetween(1, 8000)).toEqual([]);
    list.close();
  });

  it('fails with the reason when it cannot write, and takes nothing more', async () => {
    const notAFolder = join(dir, 'a-file');
    await writeFile(notAFolder, '');
    const writer = startImportWriter(join(notAFolder, 'list.sqlite'));
    await expect(writer.close()).rejects.toThrow(/a-file/);
    const packer = createChunkPacker();
    expect(() => writer.write(packer.take(1, new Int32Array(0)))).toThrow(/a-file/);
    await writer.abort();
  });
});
