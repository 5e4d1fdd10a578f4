// The rows of a UTF-8 CSV as byte ranges, for importing and exporting large lists: no string per cell
// and no array per row, which is where a string parser spends its time. It reads only the common shape
// of a list, and reads it as papaparse does in csv-reader.ts. On anything else it answers `false` and
// the caller reads the file again with csv-reader.ts, which also explains any fault. "Anything else" is:
//   another encoding, or bytes that are not UTF-8;
//   a line break other than the one papaparse guesses from the file's head;
//   a closing quote followed by anything but a delimiter or a line break;
//   a quote left open at the end, or a row longer than csv-reader's longest cell.
import { isUtf8 } from 'node:buffer';
import { open, stat } from 'node:fs/promises';
import { StringDecoder } from 'node:string_decoder';
import Papa from 'papaparse';
import { maxCellChars } from './csv-reader.ts';
import { readHead, sniffEncoding } from './text-decoding.ts';

/** What the scanner learned about a cell while it passed. */
export const cellFlag = {
  /** Written between quotes in the file. */
  quoted: 1,
  /** A quoted cell whose value must be quoted again when written: quotes, delimiter, line break, edge space. */
  needsQuotes: 2,
  /** A quoted cell with `""` in it. */
  escapedQuote: 4,
  /** The raw bytes are not how csv-writer.ts writes the value: decode it and write it as text. */
  odd: 8,
} as const;

/**
 * One row, valid only during the call it is handed to: `bytes[start, end)` without its line break; cell
 * `i` is `bytes[cellStart[i], cellEnd[i])`, quotes included.
 */
export type ByteRow = {
  bytes: Buffer;
  start: number;
  end: number;
  count: number;
  cellStart: Int32Array;
  cellEnd: Int32Array;
  flags: Uint8Array;
};

export type ByteRowHandler = (row: ByteRow) => void | Promise<void>;

const LF = 10;
const CR = 13;
const QUOTE = 34;
const SPACE = 32;
/** The lead byte of U+F000..U+FFFF, which holds U+FEFF (a byte-order mark, which the writer quotes). */
const EF = 0xef;
const readBytes = 1024 * 1024;
const INCOMPLETE = -1;
const UNSUPPORTED = -2;

/** The value of cell `i` as papaparse gives it; '' past the row's end. */
export function cellText(row: ByteRow, i: number): string {
  if (i >= row.count) return '';
  const flags = row.flags[i]!;
  const quoted = (flags & cellFlag.quoted) !== 0 ? 1 : 0;
  const text = row.bytes.toString('utf8', row.cellStart[i]! + quoted, row.cellEnd[i]! - quoted);
  return (flags & cellFlag.escapedQuote) !== 0 ? text.replaceAll('""', '"') : text;
}

function grow(row: ByteRow) {
  const size = row.cellStart.length * 2;
  const cellStart = new Int32Array(size);
  const cellEnd = new Int32Array(size);
  const flags = new Uint8Array(size);
  cellStart.set(row.cellStart);
  cellEnd.set(row.cellEnd);
  flags.set(row.flags);
  Object.assign(row, { cellStart, cellEnd, flags });
}

type LineBreak = '\n' | '\r\n' | '\r';

/**
 * The line break papaparse will split rows on: its guess from its first chunk of text, which is the
 * file's first `decodedChunkBytes` decoded (text-decoding.ts, where `readHead` reads as many). Quotes out
 * of place can make it differ from the first line break.
 */
function papaparseLineBreak(head: Uint8Array, bomLength: number, delimiter: string): LineBreak | null {
  const text = new StringDecoder('utf8').write(head.subarray(bomLength));
  const guess = Papa.parse(text, { delimiter, preview: 1 }).meta.linebreak;
  return guess === '\n' || guess === '\r\n' || guess === '\r' ? guess : null;
}

function createScanner(delimiter: number, lineBreak: LineBreak) {
  // The bytes the scan stops at, in a cell and between quotes alike.
  const stops = new Uint8Array(256);
  for (const b of [delimiter, LF, CR, QUOTE, EF]) stops[b] = 1;

  /** The length of the line break at `i` (a CR or LF), or INCOMPLETE / UNSUPPORTED. */
  function breakAt(bytes: Buffer, i: number, limit: number, atEnd: boolean): number {
    const b = bytes[i];
    if (lineBreak === '\n') return b === LF ? 1 : UNSUPPORTED;
    if (lineBreak === '\r') return b === CR ? 1 : UNSUPPORTED;
    if (b !== CR) return UNSUPPORTED;
    if (i + 1 >= limit) return atEnd ? UNSUPPORTED : INCOMPLETE;
    return bytes[i + 1] === LF ? 2 : UNSUPPORTED;
  }

  /**
   * Reads the row that begins at `pos` into `row`: answers where the next row begins, or INCOMPLETE when
   * the row runs past `limit` before the file's end, or UNSUPPORTED.
   */
  function scanRow(bytes: Buffer, pos: number, limit: number, atEnd: boolean, row: ByteRow): number {
    row.bytes = bytes;
    row.start = pos;
    row.count = 0;
    let i = pos;
    for (;;) {
      if (row.count === row.cellStart.length) grow(row);
      const cell = row.count;
      const start = i;
      let flags = 0;
      if (i < limit && bytes[i] === QUOTE) {
        flags = cellFlag.quoted;
        i += 1;
        for (;;) {
          while (i < limit && stops[bytes[i]!] === 0) i += 1;
          if (i >= limit) return atEnd ? UNSUPPORTED : INCOMPLETE;
          const b = bytes[i]!;
          if (b !== QUOTE) {
            flags |= b === EF ? cellFlag.odd : cellFlag.needsQuotes;
            i += 1;
            continue;
          }
          if (i + 1 >= limit && !atEnd) return INCOMPLETE;
          if (bytes[i + 1] === QUOTE && i + 1 < limit) {
            flags |= cellFlag.escapedQuote | cellFlag.needsQuotes;
            i += 2;
            continue;
          }
          i += 1;
          break;
        }
        if (i < limit && bytes[i] !== delimiter && bytes[i] !== LF && bytes[i] !== CR) return UNSUPPORTED;
        if (i - start > 2 && (bytes[start + 1] === SPACE || bytes[i - 2] === SPACE)) flags |= cellFlag.needsQuotes;
      } else {
        for (;;) {
          while (i < limit && stops[bytes[i]!] === 0) i += 1;
          if (i >= limit || bytes[i] === delimiter || bytes[i] === LF || bytes[i] === CR) break;
          // A quote inside an unquoted cell is text, and an EF byte may begin a byte-order mark.
          flags |= cellFlag.odd;
          i += 1;
        }
        if (i >= limit && !atEnd) return INCOMPLETE;
        if (i > start && (bytes[start] === SPACE || bytes[i - 1] === SPACE)) flags |= cellFlag.odd;
      }
      row.cellStart[cell] = start;
      row.cellEnd[cell] = i;
      row.flags[cell] = flags;
      row.count = cell + 1;
      if (i >= limit) {
        row.end = i;
        return i;
      }
      if (bytes[i] === delimiter) {
        i += 1;
        continue;
      }
      const length = breakAt(bytes, i, limit, atEnd);
      if (length < 0) return length;
      row.end = i;
      return i + length;
    }
  }
  return scanRow;
}

/** A row papaparse skips (an empty line), or csv-reader skips (one cell of blanks). */
function isBlank(row: ByteRow): boolean {
  if (row.count !== 1) return false;
  const first = row.bytes[row.start];
  if (row.end === row.start) return true;
  // Most one-cell rows start with a letter, and are not blank.
  if (first !== undefined && (first | 0x20) >= 97 && (first | 0x20) <= 122) return false;
  return cellText(row, 0).trim() === '';
}

/** Where the bytes before `end` can be cut without splitting a UTF-8 character. */
function characterBoundary(bytes: Buffer, from: number, end: number): number {
  for (let i = end - 1; i >= from && i >= end - 4; i -= 1) {
    const b = bytes[i]!;
    if (b < 0x80) return i + 1;
    if (b >= 0xc0) return i;
  }
  return end;
}

function sniffOrNull(head: Uint8Array) {
  try {
    return sniffEncoding(head);
  } catch {
    return null;
  }
}

export type ByteRowsOptions = {
  delimiter: string;
  skipFirstRow?: boolean;
  /** Sees every byte of the file as it is read; the chunk is reused after the call. */
  onBytes?: (chunk: Buffer) => void;
};

/**
 * Calls `onRow` for each row that csv-reader.ts would hand on, in order, waiting for any promise it
 * returns. Answers false, having stopped, when the file is not of the shape this reads: the caller then
 * starts over with csv-reader.ts. Errors thrown by `onRow` pass through.
 */
export async function readCsvByteRows(path: string, onRow: ByteRowHandler, options: ByteRowsOptions): Promise<boolean> {
  const delimiter = options.delimiter.length === 1 ? options.delimiter.charCodeAt(0) : -1;
  if (delimiter < 1 || delimiter > 0x7f || delimiter === QUOTE || delimiter === LF || delimiter === CR) return false;
  const info = await stat(path).catch(() => null);
  if (!info?.isFile() || info.size === 0) return false;
  // A file csv-reader.ts refuses (binary, say) is left to it, to explain.
  const head = await readHead(path).catch(() => null);
  const sniff = head && sniffOrNull(head);
  if (!head || sniff?.encoding !== 'utf-8') return false;
  const lineBreak = papaparseLineBreak(head, sniff.bomLength, options.delimiter);
  if (!lineBreak) return false;

  const scanRow = createScanner(delimiter, lineBreak);
  const row: ByteRow = {
    bytes: Buffer.alloc(0),
    start: 0,
    end: 0,
    count: 0,
    cellStart: new Int32Array(64),
    cellEnd: new Int32Array(64),
    flags: new Uint8Array(64),
  };
  let skipping = options.skipFirstRow === true;
  const handle = await open(path, 'r');
  let ahead: Promise<number> | undefined;
  try {
    let bytes = Buffer.allocUnsafe(readBytes * 2);
    let filled = 0;
    let pos = sniff.bomLength;
    let checked = 0;
    let atEnd = false;
    // The next piece of the file is read while the rows before it are handled.
    const piece = Buffer.allocUnsafe(readBytes);
    const readPiece = () => {
      const read = handle.read(piece, 0, readBytes).then(({ bytesRead }) => bytesRead);
      // A read that fails while a row is being written is seen when it is awaited, not as unhandled.
      read.catch(() => {});
      return read;
    };
    ahead = readPiece();
    while (!atEnd || pos < filled) {
      if (!atEnd) {
        const bytesRead = await ahead!;
        while (filled + bytesRead > bytes.length) {
          if (bytes.length >= maxCellChars) return false;
          const larger = Buffer.allocUnsafe(bytes.length * 2);
          bytes.copy(larger, 0, 0, filled);
          bytes = larger;
        }
        piece.copy(bytes, filled, 0, bytesRead);
        options.onBytes?.(piece.subarray(0, bytesRead));
        if (bytesRead > 0) ahead = readPiece();
        filled += bytesRead;
        atEnd = bytesRead === 0;
        const boundary = atEnd ? filled : characterBoundary(bytes, checked, filled);
        if (!isUtf8(bytes.subarray(checked, boundary))) return false;
        checked = boundary;
      }
      for (;;) {
        if (pos >= filled) break;
        const next = scanRow(bytes, pos, filled, atEnd, row);
        if (next === UNSUPPORTED) return false;
        if (next === INCOMPLETE) break;
        pos = next;
        if (isBlank(row)) continue;
        if (skipping) {
          skipping = false;
          continue;
        }
        const wait = onRow(row);
        if (wait) await wait;
      }
      if (!atEnd && pos > 0) {
        // The unfinished row moves to the front; the rows before it have been handed on.
        bytes.copy(bytes, 0, pos, filled);
        filled -= pos;
        checked -= pos;
        pos = 0;
      }
    }
    return true;
  } finally {
    // A read still under way must end before its handle closes.
    await ahead?.catch(() => {});
    await handle.close();
  }
}
