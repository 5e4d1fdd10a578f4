// `sift clean book.xlsx`: which sheet is read (the one named, else the first with a column of email
// addresses), said before anything else when a workbook has several, and a `--sheet` that names none of
// them refused with the names it has.
import { basename } from 'node:path';
import { sheetToRead } from '../core/lists/sheet-guess.ts';
import { isWorkbookFile, xlsxSheetNames } from '../core/lists/xlsx-reader.ts';
import { CliExit, exitCodes, exitFor, type CliIo } from './cli-io.ts';

/** The sheet to read, or undefined for a list that is not a workbook. */
export async function chooseSheet(
  path: string,
  typed: string,
  sheet: string | undefined,
  io: CliIo,
): Promise<string | undefined> {
  try {
    if (sheet !== undefined) {
      if (!(await isWorkbookFile(path)))
        throw new CliExit(exitCodes.usage, `--sheet is for workbooks (.xlsx); ${typed} is not one.`);
      const sheets = await xlsxSheetNames(path, basename(path));
      if (!sheets.includes(sheet))
        throw new CliExit(exitCodes.usage, `${typed} has no sheet "${sheet}". Its sheets are: ${quoted(sheets)}.`);
      return sheet;
    }
    const guessed = await sheetToRead(path, basename(path));
    if (guessed && guessed.sheets.length > 1) {
      const why = guessed.sheet === guessed.sheets[0] ? '' : ', the first with email addresses';
      io.err(
        `${typed} has ${guessed.sheets.length} sheets (${quoted(guessed.sheets)}): reading "${guessed.sheet}"${why}; --sheet NAME reads another.\n`,
      );
    }
    return guessed?.sheet;
  } catch (error) {
    throw exitFor(error);
  }
}

const quoted = (names: readonly string[]) => names.map((name) => `"${name}"`).join(', ');
