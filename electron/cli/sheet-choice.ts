// `sift clean book.xlsx`: which sheet is read, said before anything else when a workbook has several, and a
// `--sheet` that names none of them refused with the names it has.
import { basename } from 'node:path';
import { isWorkbookFile, xlsxSheetNames } from '../core/lists/xlsx-reader.ts';
import { CliExit, exitCodes, exitFor, type CliIo } from './cli-io.ts';

/** The sheet to read (the first when none is named), or undefined for a list that is not a workbook. */
export async function chooseSheet(
  path: string,
  typed: string,
  sheet: string | undefined,
  io: CliIo,
): Promise<string | undefined> {
  try {
    if (!(await isWorkbookFile(path))) {
      if (sheet !== undefined)
        throw new CliExit(exitCodes.usage, `--sheet is for workbooks (.xlsx); ${typed} is not one.`);
      return undefined;
    }
    const sheets = await xlsxSheetNames(path, basename(path));
    const names = sheets.map((name) => `"${name}"`).join(', ');
    if (sheet !== undefined && !sheets.includes(sheet))
      throw new CliExit(exitCodes.usage, `${typed} has no sheet "${sheet}". Its sheets are: ${names}.`);
    if (sheet === undefined && sheets.length > 1)
      io.err(`${typed} has ${sheets.length} sheets (${names}): reading "${sheets[0]}"; --sheet NAME reads another.\n`);
    return sheet ?? sheets[0];
  } catch (error) {
    throw exitFor(error);
  }
}
