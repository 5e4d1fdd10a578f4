// Writing CSV fast and safely: lines quoted the way papaparse quotes them, written through a file
// handle whose every failure (missing folder, no permission, full disk) comes back as a rejected promise
// with a message a person can act on, never as an unhandled stream 'error' event.
import { open, rm, type FileHandle } from 'node:fs/promises';
import { dirname } from 'node:path';
import { AppError } from '../../common/app-error.ts';

/**
 * One CSV line (without its line break), quoting cells as papaparse's unparse does: a cell with a quote,
 * a line break, a byte-order mark or the delimiter, or with a leading or trailing space. `transform`, when
 * given, changes each cell first (the formula guard), without an array per row.
 */
export function csvLineWriter(
  delimiter: string,
): (cells: readonly string[], transform?: (cell: string) => string) => string {
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
  return (cells, transform) => {
    let line = '';
    for (let i = 0; i < cells.length; i += 1) {
      const cell = transform ? transform(cells[i]!) : cells[i]!;
      if (i > 0) line += delimiter;
      line += needsQuotes(cell) ? `"${cell.replace(/"/g, '""')}"` : cell;
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
/** Lines are joined into strings of about this many characters before encoding: one encode per line costs more. */
const pendingChars = 16 * 1024;

/**
 * A file written in large pieces; `write` returns a promise only when it had to wait for the disk. Text is
 * gathered into a string of many lines, encoded into a buffer, and a full buffer is written as bytes.
 */
export class BufferedFileWriter {
  readonly path: string;
  private handle: FileHandle | null;
  private buffer = Buffer.allocUnsafe(bufferBytes);
  private used = 0;
  private pending = '';

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

  async flush(): Promise<void> {
    await this.encodePending();
    await this.writeBuffer();
  }

  private encodePending(): Promise<void> | undefined {
    const text = this.pending;
    this.pending = '';
    if (text.length === 0) return undefined;
    // A UTF-8 character takes at most 3 bytes per UTF-16 unit.
    if (text.length * 3 > bufferBytes) return this.writeBuffer().then(() => this.writeDirect(text));
    const written = this.used + text.length * 3 > bufferBytes ? this.writeBuffer() : undefined;
    this.used += this.buffer.write(text, this.used);
    return written;
  }

  private async writeBuffer(): Promise<void> {
    if (this.used === 0) return;
    const bytes = this.buffer.subarray(0, this.used);
    // The next writes go to a fresh buffer while this one is on its way to the disk.
    this.buffer = Buffer.allocUnsafe(bufferBytes);
    this.used = 0;
    await this.writeDirect(bytes);
  }

  private async writeDirect(data: string | Buffer): Promise<void> {
    try {
      // writeFile on a handle writes all of `data` at the current position, looping over short writes.
      await this.handle!.writeFile(data);
    } catch (error) {
      throw writeFailure(error, this.path);
    }
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

  /** Gives up: closes and removes the file, ignoring further errors. */
  async discard(): Promise<void> {
    await this.handle?.close().catch(() => {});
    this.handle = null;
    await rm(this.path, { force: true }).catch(() => {});
  }
}
