// A workbook's sheet copied as a CSV file, once, when its list is read: every later reading (the import,
// the row explorer, the export) then reads rows as it does any CSV, fast and the same each time, and an
// export keeps to the rows that were checked even if the workbook is edited afterwards.
import { rename, rm } from 'node:fs/promises';
import { BufferedFileWriter, csvLineWriter } from './csv-writer.ts';
import { readXlsxRows } from './xlsx-reader.ts';

/** Copies the sheet named `sheet` (the workbook's first when none) to `csvPath`; answers which it was. */
export async function copySheetAsCsv(
  workbookPath: string,
  csvPath: string,
  displayName: string,
  sheet?: string,
): Promise<{ sheet: string; sheets: string[] }> {
  const partial = `${csvPath}.partial`;
  const writer = await BufferedFileWriter.create(partial);
  const line = csvLineWriter(',');
  try {
    const read = await readXlsxRows(workbookPath, displayName, (cells) => writer.write(`${line(cells)}\r\n`), sheet);
    await writer.close();
    await rename(partial, csvPath);
    return read;
  } catch (error) {
    await writer.discard();
    await rm(partial, { force: true });
    throw error;
  }
}
