// Opens a text file as a stream of decoded strings, whatever encoding spreadsheet programs saved it in.
import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';
import { Readable } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';
import { AppError } from '../../common/app-error.ts';

type TextEncodingName = 'utf-8' | 'utf-16le' | 'utf-16be' | 'windows-1252';

export type SniffResult = { encoding: TextEncodingName; bomLength: number };

/** 64 KiB chunks decode to strings small enough for V8's young generation, so they are freed quickly. */
const decodedChunkBytes = 64 * 1024;
/**
 * The head read to sniff the encoding is the first chunk itself: csv-byte-rows.ts asks papaparse for the
 * line break it will guess from its first chunk, and must show it the same text.
 */
const SNIFF_BYTES = decodedChunkBytes;

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

/**
 * A readable of decoded text; a character split across chunks is decoded whole. `onBytes` sees every
 * byte of the file as read (a hash of the whole input costs no second read).
 */
export function openDecodedText(path: string, sniff: SniffResult, onBytes?: (chunk: Buffer) => void): Readable {
  const bytes = createReadStream(path, { highWaterMark: decodedChunkBytes });
  let skip = sniff.bomLength;
  // Node's own decoders are the fast path; TextDecoder covers what Node has no name for.
  const nodeEncoding = sniff.encoding === 'utf-8' ? 'utf8' : sniff.encoding === 'utf-16le' ? 'utf16le' : null;
  const decoder = nodeEncoding ? null : new TextDecoder(sniff.encoding);
  async function* decode() {
    const stringDecoder = nodeEncoding ? new StringDecoder(nodeEncoding) : null;
    for await (const raw of bytes) {
      const chunk = raw as Buffer;
      onBytes?.(chunk);
      let body = chunk;
      if (skip > 0) {
        body = chunk.subarray(Math.min(skip, chunk.length));
        skip -= chunk.length - body.length;
      }
      const text = stringDecoder ? stringDecoder.write(body) : decoder!.decode(body, { stream: true });
      if (text) yield text;
    }
    const tail = stringDecoder ? stringDecoder.end() : decoder!.decode();
    if (tail) yield tail;
  }
  return Readable.from(decode(), { objectMode: false, encoding: 'utf8' });
}
