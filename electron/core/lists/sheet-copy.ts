// A workbook's sheet copied as a CSV file, once, when its list is read: every later reading (the import,
// the row explorer, the export) then reads rows as it does any CSV, fast and the same each time, and an
// export keeps to the rows that were checked even if the workbook is edited afterwards. The copy is bounded
// as it is written: a workbook of a few kilobytes can name one huge shared string in every cell, and would
// copy to gigabytes. No cell longer than a CSV's (the reader's own cap), no copy past `maxCopyChars`.
import { rename, rm } from 'node:fs/promises';
import { AppError } from '../../common/app-error.ts';
import { maxCellChars } from './csv-reader.ts';
import { BufferedFileWriter, csvLineWriter } from './csv-writer.ts';
import { readXlsxRows } from './xlsx-reader.ts';

/** The most a sheet copies to: far past any list's text (a million rows of 200 characters is 200 MB). */
const maxCopyChars = 2 * 1024 ** 3;

/** Copies the sheet named `sheet` (the workbook's first when none) to `csvPath`; answers which it was. */
export async function copySheetAsCsv(
  workbookPath: string,
  csvPath: string,
  displayName: string,
  sheet?: string,
  limits: { copyChars?: number } = {},
): Promise<{ sheet: string; sheets: string[] }> {
  const partial = `${csvPath}.partial`;
  const writer = await BufferedFileWriter.create(partial);
  const line = csvLineWriter(',');
  const most = limits.copyChars ?? maxCopyChars;
  let copied = 0;
  let row = 0;
  try {
    const read = await readXlsxRows(
      workbookPath,
      displayName,
      (cells) => {
        row += 1;
        if (cells.some((cell) => cell.length > maxCellChars))
          throw new AppError(
            'unreadable_file',
            `"${displayName}" has a cell longer than ${maxCellChars / 1024 ** 2} MB in row ${row.toLocaleString('en')}: it is not a list (a damaged or hostile file), and it is not read.`,
          );
        const text = `${line(cells)}\r\n`;
        copied += text.length;
        if (copied > most)
          throw new AppError(
            'unreadable_file',
            `"${displayName}" unpacks to more than ${most / 1024 ** 3 >= 1 ? `${most / 1024 ** 3} GB` : `${Math.round(most / 1024 ** 2)} MB`} of text by row ${row.toLocaleString('en')}, more than a list holds: it is not read (a damaged or hostile file).`,
          );
        return writer.write(text);
      },
      sheet,
    );
    await writer.close();
    await rename(partial, csvPath);
    return read;
  } catch (error) {
    await writer.discard();
    await rm(partial, { force: true });
    throw error;
  }
}
