// Streams the rows of a CSV or text list, whatever its encoding and delimiter, with bounded memory: a
// slow consumer holds the file back, and a quote that never closes is refused instead of read to the end.
import { stat } from 'node:fs/promises';
import Papa from 'papaparse';
import { AppError } from '../../common/app-error.ts';
import { openDecodedText, readHead, sniffEncoding, type SniffResult } from './text-decoding.ts';

export type CsvReadSummary = { delimiter: string; stopped: boolean; encoding: SniffResult['encoding'] };

/** The largest cell Sift reads, and so the most text it ever holds for one unfinished row. */
export const maxCellChars = 4 * 1024 * 1024;

/**
 * A copy of a cell that no longer points into the chunk of text it was parsed from. V8 keeps a
 * substring's whole parent alive, so a caller that holds cells across rows should keep copies.
 */
export function detachCell(cell: string): string {
  return Buffer.from(cell, 'utf8').toString('utf8');
}

/** `place`: the row's place in the file, its blank lines counted: the row a spreadsheet shows it in. */
export type RowHandler = (row: string[], place: number) => boolean | void | Promise<void>;

export type CsvReadOptions = {
  delimiter?: string;
  /** The file's header row, when it has one, is not handed to `onRow`. */
  skipFirstRow?: boolean;
  /** Sees every byte of the file as it is read. */
  onBytes?: (chunk: Buffer) => void;
};

/**
 * The delimiter papaparse guesses with blank lines left out of the guess, as the rows handed on leave them
 * out (one field on a blank line would sway it): the parse itself gives them to the reader, to count them.
 * Given the first chunk, of which papaparse's guess reads ten rows.
 */
const guessDelimiter = (input: string) =>
  Papa.parse<string[]>(input, { preview: 10, skipEmptyLines: true }).meta.delimiter;

function unclosedQuote(displayName: string, row: number): AppError {
  return new AppError(
    'unreadable_file',
    `"${displayName}" has a quote that never closes in row ${row} (or a cell longer than ${maxCellChars / 1024 ** 2} MB). ` +
      'Fix that row and try again.',
  );
}

/**
 * Calls `onRow` for each non-empty row, with its place in the file; returning `false` stops the read early,
 * and returning a promise pauses the read (and the file) until it settles, so a slow writer holds the reader
 * back.
 * An empty, binary or missing file, or a broken quote, is an AppError('unreadable_file') naming `displayName`.
 */
export async function readCsvRows(
  path: string,
  displayName: string,
  onRow: RowHandler,
  options: CsvReadOptions = {},
): Promise<CsvReadSummary> {
  const info = await stat(path).catch(() => {
    throw new AppError('unreadable_file', `Sift cannot open "${displayName}". It may have been moved or deleted.`);
  });
  if (!info.isFile()) throw new AppError('unreadable_file', `"${displayName}" is not a file.`);
  if (info.size === 0) throw new AppError('unreadable_file', `"${displayName}" is empty.`);

  const sniff = sniffEncoding(await readHead(path));
  let charsRead = 0;
  const text = openDecodedText(path, sniff, options.onBytes);
  text.on('data', (chunk: string) => (charsRead += chunk.length));
  let delimiter = ',';
  let stopped = false;
  let failure: unknown;
  let skipping = options.skipFirstRow === true;
  let rowsSeen = 0;
  await new Promise<void>((resolve, reject) => {
    const stop = (parser: Papa.Parser, error?: unknown) => {
      if (error !== undefined) failure = error;
      stopped = true;
      parser.abort();
    };
    /**
     * Hands rows on from `start`. Answers false when a handler's promise is still pending: the rest of the
     * rows follow when it settles, and only a continuation that gets to the end resumes the file.
     */
    const deliver = (rows: string[][], start: number, parser: Papa.Parser): boolean => {
      for (let index = start; index < rows.length; index += 1) {
        const row = rows[index]!;
        rowsSeen += 1;
        if (row.length === 1 && row[0]!.trim() === '') continue; // a blank line, or one of spaces only
        if (skipping) {
          skipping = false;
          continue;
        }
        let outcome: ReturnType<RowHandler>;
        try {
          outcome = onRow(row, rowsSeen);
        } catch (error) {
          stop(parser, error);
          return true;
        }
        if (outcome === false) {
          stop(parser);
          return true;
        }
        if (outcome instanceof Promise) {
          outcome.then(
            () => {
              if (deliver(rows, index + 1, parser) && !stopped) {
                text.resume();
                parser.resume();
              }
            },
            (error: unknown) => stop(parser, error),
          );
          return false;
        }
      }
      return true;
    };
    // papaparse reads Node streams too; its types only name browser inputs.
    Papa.parse<string[]>(text as unknown as File, {
      // Blank lines come to deliver, which counts them (a row's place is as a spreadsheet shows it) and skips
      // them; a row of empty cells (",,") is still a row, and comes out again.
      skipEmptyLines: false,
      delimiter: options.delimiter ?? guessDelimiter,
      chunk(results, parser) {
        delimiter = results.meta.delimiter;
        const missing = results.errors.find((error) => error.code === 'MissingQuotes');
        if (missing) return stop(parser, unclosedQuote(displayName, rowsSeen + (missing.row ?? 0) + 1));
        // What papaparse holds back is the row it could not finish: a quote left open makes it the rest of the file.
        if (charsRead - results.meta.cursor > maxCellChars) {
          return stop(parser, unclosedQuote(displayName, rowsSeen + results.data.length + 1));
        }
        if (!deliver(results.data, 0, parser)) {
          parser.pause();
          text.pause();
        }
      },
      complete: () => resolve(),
      error: (error: Error) => reject(error),
    });
  }).finally(() => text.destroy());
  if (failure) throw failure;
  return { delimiter, stopped, encoding: sniff.encoding };
}
