// Streams the rows of a CSV or text list, whatever its encoding and delimiter, one row at a time.
import { stat } from 'node:fs/promises';
import Papa from 'papaparse';
import { AppError } from '../../common/app-error.ts';
import { openDecodedText, readHead, sniffEncoding, type SniffResult } from './text-decoding.ts';

export type CsvReadSummary = { delimiter: string; stopped: boolean; encoding: SniffResult['encoding'] };

/**
 * A copy of a cell that no longer points into the chunk of text it was parsed from. V8 keeps a
 * substring's whole parent alive, so a caller that holds cells across rows should keep copies.
 */
export function detachCell(cell: string): string {
  return Buffer.from(cell, 'utf8').toString('utf8');
}

export type RowHandler = (row: string[]) => boolean | void | Promise<void>;

/**
 * Calls `onRow` for each non-empty row; returning `false` stops the read early, and returning a
 * promise pauses the read (and the file) until it settles, so a slow writer holds the reader back.
 * An empty, binary or missing file is an AppError('unreadable_file') naming `displayName`.
 */
export async function readCsvRows(
  path: string,
  displayName: string,
  onRow: RowHandler,
  /** `skipFirstRow`: the file's header row, when it has one, is not handed to `onRow`. */
  options: { delimiter?: string; skipFirstRow?: boolean } = {},
): Promise<CsvReadSummary> {
  const info = await stat(path).catch(() => {
    throw new AppError('unreadable_file', `Sift cannot open "${displayName}". It may have been moved or deleted.`);
  });
  if (!info.isFile()) throw new AppError('unreadable_file', `"${displayName}" is not a file.`);
  if (info.size === 0) throw new AppError('unreadable_file', `"${displayName}" is empty.`);

  const sniff = sniffEncoding(await readHead(path));
  const text = openDecodedText(path, sniff);
  let delimiter = ',';
  let stopped = false;
  let failure: unknown;
  let skipping = options.skipFirstRow === true;
  await new Promise<void>((resolve, reject) => {
    // papaparse reads Node streams too; its types only name browser inputs.
    Papa.parse<string[]>(text as unknown as File, {
      // Blank lines are skipped; a row of empty cells (",,") is still a row, and comes out again.
      skipEmptyLines: true,
      delimiter: options.delimiter,
      step(result, parser) {
        delimiter = result.meta.delimiter;
        if (result.data.length === 1 && result.data[0]!.trim() === '') return; // a line of spaces only
        if (skipping) {
          skipping = false;
          return;
        }
        try {
          const outcome = onRow(result.data);
          if (outcome === false) {
            stopped = true;
            parser.abort();
          } else if (outcome instanceof Promise) {
            parser.pause();
            outcome.then(
              () => parser.resume(),
              (error: unknown) => {
                failure = error;
                stopped = true;
                parser.abort();
              },
            );
          }
        } catch (error) {
          failure = error;
          stopped = true;
          parser.abort();
        }
      },
      complete: () => resolve(),
      error: (error: Error) => reject(error),
    });
  }).finally(() => text.destroy());
  if (failure) throw failure;
  return { delimiter, stopped, encoding: sniff.encoding };
}
