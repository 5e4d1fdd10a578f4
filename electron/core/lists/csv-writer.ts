// Writing CSV fast and safely: lines quoted the way papaparse quotes them, written through a file
// handle whose every failure (missing folder, no permission, full disk) comes back as a rejected promise
// with a message a person can act on, never as an unhandled stream 'error' event.
import { open, rename, rm, type FileHandle } from 'node:fs/promises';
import { dirname } from 'node:path';
import { AppError } from '../../common/app-error.ts';
import { neutraliseFormula } from './formula-guard.ts';

/**
 * One CSV cell as it is written in a line, quoted as papaparse's unparse quotes: when it has a quote, a
 * line break, a byte-order mark or the delimiter, or a leading or trailing space. `transform`, when given,
 * changes the cell first (the formula guard).
 */
export function csvCellWriter(delimiter: string): (cell: string, transform?: (cell: string) => string) => string {
  const delimiterCode = delimiter.length === 1 ? delimiter.charCodeAt(0) : -1;
  const needsQuotes = (cell: string): boolean => {
    const length = cell.length;
    if (length === 0) return false;
    if (cell.charCodeAt(0) === 32 || cell.charCodeAt(length - 1) === 32) return true;
    // A loop over char codes: this runs for every cell of every output, where a regex test costs more.
    for (let i = 0; i < length; i += 1) {
      const code = cell.charCodeAt(i);
      if (code === 34 || code === 10 || code === 13 || code === delimiterCode || code === 0xfeff) return true;
    }
    return delimiterCode === -1 && cell.includes(delimiter);
  };
  return (value, transform) => {
    const cell = transform ? transform(value) : value;
    return needsQuotes(cell) ? `"${cell.replace(/"/g, '""')}"` : cell;
  };
}

/** One CSV line (without its line break) of cells written as `csvCellWriter` writes them, without an array per row. */
export function csvLineWriter(
  delimiter: string,
): (cells: readonly string[], transform?: (cell: string) => string) => string {
  const cellOf = csvCellWriter(delimiter);
  return (cells, transform) => {
    let line = '';
    for (let i = 0; i < cells.length; i += 1) {
      if (i > 0) line += delimiter;
      line += cellOf(cells[i]!, transform);
    }
    return line;
  };
}

/** What a person is told when a file cannot be written, by the system's error code. */
export function writeFailure(error: unknown, path: string): AppError {
  const code = (error as { code?: string }).code;
  const folder = dirname(path);
  const message =
    code === 'ENOENT'
      ? `The folder ${folder} does not exist.`
      : code === 'EACCES' || code === 'EPERM' || code === 'EROFS'
        ? `Sift may not write to ${folder}. Choose a folder you can write to.`
        : code === 'ENOSPC' || code === 'EDQUOT'
          ? `The disk holding ${folder} is full. Free some space and export again.`
          : `Sift could not write ${path}: ${error instanceof Error ? error.message : String(error)}`;
  return new AppError('unwritable', message);
}

const bufferBytes = 1024 * 1024;
/** Full buffers that may be on their way to the disk; one more, and the writer waits until all are written. */
const maxQueuedBuffers = 3;
/** Lines are joined into strings of about this many characters before encoding: one encode per line costs more. */
const pendingChars = 16 * 1024;

/**
 * A file written in large pieces; each write returns a promise only when it had to wait for the disk.
 * `write` gathers text into a string of many lines and encodes it in one go; `writeBytes`, `writeText`
 * and `writeAscii` put bytes straight into the buffer, for a caller that copies rows as bytes. A full
 * buffer goes to the disk while the next one fills; the disk writes are queued, so they land in order.
 */
export class BufferedFileWriter {
  readonly path: string;
  private handle: FileHandle | null;
  private buffer = Buffer.allocUnsafe(bufferBytes);
  private used = 0;
  private pending = '';
  private writing: Promise<void> = Promise.resolve();
  /** Buffers handed to the disk and not yet written. */
  private queued = 0;
  private failed = false;

  private constructor(path: string, handle: FileHandle) {
    this.path = path;
    this.handle = handle;
  }

  static async create(path: string): Promise<BufferedFileWriter> {
    try {
      return new BufferedFileWriter(path, await open(path, 'w'));
    } catch (error) {
      throw writeFailure(error, path);
    }
  }

  write(text: string): Promise<void> | undefined {
    this.pending += text;
    return this.pending.length >= pendingChars ? this.encodePending() : undefined;
  }

  /** Copies `source[start, end)`. */
  writeBytes(source: Buffer, start: number, end: number): Promise<void> | undefined {
    const length = end - start;
    const wait = this.room(length);
    if (length > bufferBytes) return this.enqueue(Buffer.from(source.subarray(start, end)));
    this.used += source.copy(this.buffer, this.used, start, end);
    return wait;
  }

  /** Encodes `text` as UTF-8 now. */
  writeText(text: string): Promise<void> | undefined {
    // A UTF-8 character takes at most 3 bytes per UTF-16 unit.
    const wait = this.room(text.length * 3);
    if (text.length * 3 > bufferBytes) return this.enqueue(Buffer.from(text, 'utf8'));
    this.used += this.buffer.write(text, this.used);
    return wait;
  }

  /**
   * A short text of ASCII characters only (a quote, a line break, a row's padding), without a call into
   * the encoder. It must fit in one buffer: this copies, never splits.
   */
  writeAscii(text: string): Promise<void> | undefined {
    const wait = this.room(text.length);
    for (let i = 0; i < text.length; i += 1) this.buffer[this.used++] = text.charCodeAt(i);
    return wait;
  }

  async flush(): Promise<void> {
    this.encodePending();
    this.writeBuffer();
    await this.writing;
  }

  /** Makes room for `length` more bytes: text gathered by `write` goes first, and a full buffer to the disk. */
  private room(length: number): Promise<void> | undefined {
    const encoded = this.pending.length > 0 ? this.encodePending() : undefined;
    return this.used + length > bufferBytes ? this.writeBuffer() : encoded;
  }

  private encodePending(): Promise<void> | undefined {
    const text = this.pending;
    this.pending = '';
    return text.length === 0 ? undefined : this.writeText(text);
  }

  /** Hands the buffer to the disk; answers a promise to wait for only when several are on their way. */
  private writeBuffer(): Promise<void> | undefined {
    if (this.used === 0) return undefined;
    const bytes = this.buffer.subarray(0, this.used);
    // The next writes go to a fresh buffer while this one is on its way to the disk.
    this.buffer = Buffer.allocUnsafe(bufferBytes);
    this.used = 0;
    const written = this.enqueue(bytes);
    return this.queued > maxQueuedBuffers || this.failed ? written : undefined;
  }

  /** Writes after every write queued before it: two writes on one handle at once could interleave. */
  private enqueue(data: string | Buffer): Promise<void> {
    this.queued += 1;
    const written = this.writing
      // writeFile on a handle writes all of `data` at the current position, looping over short writes.
      .then(() => this.handle!.writeFile(data))
      .catch((error: unknown) => {
        this.failed = true;
        throw error instanceof AppError ? error : writeFailure(error, this.path);
      })
      .finally(() => (this.queued -= 1));
    // Seen by whoever waits next: a write no one waited for must not end the process as unhandled.
    written.catch(() => {});
    this.writing = written;
    return written;
  }

  /** Flushes, syncs to disk and closes: once this resolves, the bytes are on disk. */
  async close(): Promise<void> {
    await this.flush();
    try {
      await this.handle!.sync();
      await this.handle!.close();
      this.handle = null;
    } catch (error) {
      throw writeFailure(error, this.path);
    }
  }

  /** Gives up: waits for writes under way, closes and removes the file, ignoring further errors. */
  async discard(): Promise<void> {
    await this.writing.catch(() => {});
    await this.handle?.close().catch(() => {});
    this.handle = null;
    await rm(this.path, { force: true }).catch(() => {});
  }
}

/**
 * A CSV of `header` and rows given a page at a time (never the whole of them in memory), written as the
 * exports are: a new file beside `path` (never one already there, nor whatever a link there points at),
 * renamed into place when whole. Every cell goes through the formula guard: these files hold words from
 * outside (a tool's refusals, a mail server's replies).
 */
export async function writeCsvPages(
  path: string,
  header: readonly string[],
  pages: Iterable<readonly (readonly string[])[]>,
): Promise<void> {
  const lineOf = csvLineWriter(',');
  const partial = `${path}.partial`;
  try {
    await rm(partial, { force: true });
    const file = await open(partial, 'wx', 0o600);
    try {
      await file.write(`${lineOf(header)}\n`);
      for (const rows of pages) await file.write(rows.map((row) => `${lineOf(row, neutraliseFormula)}\n`).join(''));
    } finally {
      await file.close();
    }
    await rename(partial, path);
  } catch (error) {
    await rm(partial, { force: true }).catch(() => undefined);
    throw error instanceof AppError ? error : writeFailure(error, path);
  }
}
