// Opens a text file as a stream of decoded strings, whatever encoding spreadsheet programs saved it in.
import { open } from 'node:fs/promises';
import { createReadStream } from 'node:fs';
import { Readable } from 'node:stream';
import { AppError } from '../../common/app-error.ts';

export type TextEncodingName = 'utf-8' | 'utf-16le' | 'utf-16be' | 'windows-1252';

export type SniffResult = { encoding: TextEncodingName; bomLength: number };

const SNIFF_BYTES = 64 * 1024;

/** Decides the encoding from the first bytes: a BOM wins; else valid UTF-8; else Windows-1252. */
export function sniffEncoding(head: Uint8Array): SniffResult {
  if (head[0] === 0xef && head[1] === 0xbb && head[2] === 0xbf) return { encoding: 'utf-8', bomLength: 3 };
  if (head[0] === 0xff && head[1] === 0xfe) return { encoding: 'utf-16le', bomLength: 2 };
  if (head[0] === 0xfe && head[1] === 0xff) return { encoding: 'utf-16be', bomLength: 2 };
  if (head.includes(0)) {
    throw new AppError('unreadable_file', 'This file contains binary data, so it is not a CSV or text list.');
  }
  try {
    // stream: true so a character cut off at the end of the sample is not mistaken for bad UTF-8.
    new TextDecoder('utf-8', { fatal: true }).decode(head, { stream: true });
    return { encoding: 'utf-8', bomLength: 0 };
  } catch {
    return { encoding: 'windows-1252', bomLength: 0 };
  }
}

export async function readHead(path: string, bytes = SNIFF_BYTES): Promise<Uint8Array> {
  const handle = await open(path, 'r');
  try {
    const buffer = new Uint8Array(bytes);
    const { bytesRead } = await handle.read(buffer, 0, bytes, 0);
    return buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

/** A readable of decoded text; a character split across chunks is decoded whole. */
export function openDecodedText(path: string, sniff: SniffResult): Readable {
  const decoder = new TextDecoder(sniff.encoding);
  // 64 KiB chunks decode to strings small enough for V8's young generation, so they are freed quickly.
  const bytes = createReadStream(path, { start: sniff.bomLength, highWaterMark: 64 * 1024 });
  async function* decode() {
    for await (const chunk of bytes) {
      const text = decoder.decode(chunk as Buffer, { stream: true });
      if (text) yield text;
    }
    const tail = decoder.decode();
    if (tail) yield tail;
  }
  return Readable.from(decode(), { objectMode: false, encoding: 'utf8' });
}
