// A workbook part that is held in memory once read (the shared strings, the workbook, the styles), read
// from the zip by hand rather than through unzipper's stream, so the packed bytes taken so far can be
// counted against the bytes they unpack to: a bomb shows its ratio in its first packed kilobytes, and is
// refused there (xlsx-parts.ts' rule), not once the whole part has unpacked.
import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';
import { PassThrough, Transform, type Readable } from 'node:stream';
import { createInflateRaw } from 'node:zlib';
import type unzipper from 'unzipper';

/** A part's unpacked bytes, and how many of its packed bytes have been read to make them. */
export type HeldPart = { unpacked: Readable; packedRead(): number };

// ZIP's local file header (APPNOTE.TXT 4.3.7): its signature, then the name's and the extra field's
// lengths at bytes 26 and 28 of its 30; the packed data follows them.
const localHeaderSignature = 0x04034b50;
const localHeaderBytes = 30;
const stored = 0;
const deflated = 8;

/** Where the part's packed bytes begin in the file, from its local header. */
async function dataStart(path: string, entry: unzipper.File): Promise<number> {
  const handle = await open(path, 'r');
  try {
    const header = Buffer.alloc(localHeaderBytes);
    const { bytesRead } = await handle.read(header, 0, localHeaderBytes, entry.offsetToLocalFileHeader);
    if (bytesRead < localHeaderBytes || header.readUInt32LE(0) !== localHeaderSignature)
      throw new Error(`${entry.path} has no local header where the zip's directory says`);
    return entry.offsetToLocalFileHeader + localHeaderBytes + header.readUInt16LE(26) + header.readUInt16LE(28);
  } finally {
    await handle.close();
  }
}

export async function heldPart(path: string, entry: unzipper.File): Promise<HeldPart> {
  if (entry.compressionMethod !== stored && entry.compressionMethod !== deflated)
    throw new Error(`${entry.path} is packed by method ${entry.compressionMethod}, which a workbook does not use`);
  const start = await dataStart(path, entry);
  let packed = 0;
  const counted = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      packed += chunk.length;
      done(null, chunk);
    },
  });
  const source =
    entry.compressedSize > 0
      ? // Small reads: the count stays close to what the inflater has taken.
        createReadStream(path, { start, end: start + entry.compressedSize - 1, highWaterMark: 16 * 1024 })
      : new PassThrough().end();
  const unpack = entry.compressionMethod === deflated ? createInflateRaw() : new PassThrough();
  for (const stream of [source, counted]) stream.once('error', (error: Error) => unpack.destroy(error));
  source.pipe(counted).pipe(unpack);
  unpack.once('close', () => source.destroy());
  return { unpacked: unpack, packedRead: () => packed };
}
