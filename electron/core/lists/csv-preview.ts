// The first rows of a dropped list, parsed in main so the renderer never holds the file: a CSV or text
// list, or a workbook's sheet (the chosen one, else its first) with the names of all its sheets.
import { stat } from 'node:fs/promises';
import { basename } from 'node:path';
import { AppError } from '../../common/app-error.ts';
import type { ListPreview } from '../../common/contract.ts';
import { readCsvRows } from './csv-reader.ts';
import { isWorkbookFile, readXlsxRows, xlsxSheetNames } from './xlsx-reader.ts';

/** The first rows of a list file; `sheet` picks a workbook's sheet. */
export async function previewList(
  path: string,
  maxRows: number,
  displayName = basename(path),
  sheet?: string,
): Promise<ListPreview> {
  const rows: string[][] = [];
  let hasMoreRows = false;
  // The header plus maxRows data rows; one more row only tells us that more follow.
  const take = (row: string[]) => {
    if (rows.length > maxRows) {
      hasMoreRows = true;
      return false;
    }
    rows.push(row.map(String));
  };
  const workbook = await isWorkbookFile(path);
  const read = workbook
    ? { delimiter: ',', ...(await readXlsxRows(path, displayName, take, sheet)) }
    : await readCsvRows(path, displayName, take);
  if (rows.length === 0) throw new AppError('unreadable_file', `"${displayName}" has no rows.`);
  const [headers, ...dataRows] = rows as [string[], ...string[][]];
  const { size } = await stat(path);
  const sheets = 'sheets' in read ? { sheet: read.sheet, sheets: read.sheets } : {};
  return {
    fileName: displayName,
    sizeBytes: size,
    delimiter: read.delimiter,
    headers,
    rows: dataRows,
    hasMoreRows,
    ...sheets,
  };
}

/** A read list's preview from its rows' CSV, with the workbook's sheets when it came from one. */
export async function previewReadList(
  rowsPath: string,
  maxRows: number,
  displayName: string,
  workbook?: { path: string; sheet: string },
): Promise<ListPreview> {
  const preview = await previewList(rowsPath, maxRows, displayName);
  if (!workbook) return preview;
  const sheets = await xlsxSheetNames(workbook.path, displayName).catch(() => [workbook.sheet]);
  return { ...preview, sheet: workbook.sheet, sheets };
}
