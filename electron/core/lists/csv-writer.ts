// Writing CSV fast and safely: lines quoted the way papaparse quotes them, written through a file
// handle whose every failure (missing folder, no permission, full disk) comes back as a rejected promise
// with a message a person can act on, never as an unhandled stream 'error' event.
import { open, rm, type FileHandle } from 'node:fs/promises';
import { dirname } from 'node:path';
import { AppError } from '../../common/app-error.ts';

/** One CSV line (without its line break), quoting cells as papaparse's unparse does. */
export function csvLineWriter(delimiter: string): (cells: readonly string[]) => string {
  const needsQuotes = new RegExp(`["\\r\\n\\uFEFF${delimiter.replace(/[\\^$.*+?()[\]{}|/-]/g, '\\$&')}]|^ | $`);
  return (cells) => {
    let line = '';
    for (let i = 0; i < cells.length; i += 1) {
      const cell = cells[i]!;
      if (i > 0) line += delimiter;
      line += needsQuotes.test(cell) ? `"${cell.replace(/"/g, '""')}"` : cell;
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

const flushAtChars = 256 * 1024;

/** A file written in large pieces; `write` returns a promise only when it had to wait for the disk. */
export class BufferedFileWriter {
  readonly path: string;
  private handle: FileHandle | null;
  private pending: string[] = [];
  private pendingChars = 0;

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
    this.pending.push(text);
    this.pendingChars += text.length;
    return this.pendingChars >= flushAtChars ? this.flush() : undefined;
  }

  async flush(): Promise<void> {
    if (this.pending.length === 0) return;
    const text = this.pending.join('');
    this.pending = [];
    this.pendingChars = 0;
    try {
      await this.handle!.write(text);
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
