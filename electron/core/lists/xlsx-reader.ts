// An Excel workbook (.xlsx) read as rows of text, streaming, so a workbook of a million rows is never
// held whole: each cell as the spreadsheet shows it (xlsx-cells.ts), text cells as they are (leading zeros
// kept), a formula by its cached value.
//
// The zip is opened by its directory (unzipper), so its parts are read in the order a sheet needs them
// (the workbook, styles and shared strings first) and only the chosen sheet's rows are read; each part is
// parsed by exceljs. exceljs' own streaming reader takes parts in the zip's order, and when the sheets
// come before the shared strings it reads only the first of them (exceljs 4.4.0): hence the pinned
// version, and the parts of it used here.
import { open } from 'node:fs/promises';
import type ExcelJS from 'exceljs';
import type Unzipper from 'unzipper';
import { createRequire } from 'node:module';
import { lazyPackage } from '../lazy-package.ts';
import { AppError } from '../../common/app-error.ts';
import { WorkbookLimitError, workbookParts, type WorkbookParts } from './xlsx-parts.ts';
import { xlsxCellText } from './xlsx-cells.ts';

const require = createRequire(import.meta.url);

const unzipper = lazyPackage<typeof Unzipper>(() => require('unzipper'));

/** A zip file's first bytes: an .xlsx is a zip of XML parts. */
const zipMagic = [0x50, 0x4b, 0x03, 0x04];
/** An old binary Excel file (.xls), which Sift does not read. */
const oleMagic = [0xd0, 0xcf, 0x11, 0xe0];

async function headBytes(path: string): Promise<Uint8Array> {
  const handle = await open(path, 'r');
  try {
    const head = new Uint8Array(4);
    await handle.read(head, 0, 4, 0);
    return head;
  } finally {
    await handle.close();
  }
}

/** Whether the file is a workbook (a zip), whatever its name says; a missing file is not. */
export async function isWorkbookFile(path: string): Promise<boolean> {
  const head = await headBytes(path).catch(() => undefined);
  if (!head) return false;
  if (oleMagic.every((byte, i) => head[i] === byte))
    throw new AppError(
      'unreadable_file',
      'This is an old Excel file (.xls). Save it as an Excel workbook (.xlsx) or a CSV, then open that.',
    );
  return zipMagic.every((byte, i) => head[i] === byte);
}

function unreadable(displayName: string, error: unknown): AppError {
  if (error instanceof AppError) return error;
  if (error instanceof WorkbookLimitError) return new AppError('unreadable_file', `"${displayName}" ${error.message}`);
  const detail = error instanceof Error ? error.message : String(error);
  // A zip under another name (list.csv) is more likely not a workbook at all than a damaged one.
  if (!/\.xls[xm]$/i.test(displayName))
    return new AppError(
      'unreadable_file',
      `"${displayName}" holds binary data: a zip archive, not an Excel workbook Sift can read, so not a CSV or text list either.`,
    );
  return new AppError(
    'unreadable_file',
    `"${displayName}" is not an Excel workbook Sift can read: it may be damaged or only partly copied (${detail}).`,
  );
}

async function openParts(path: string, displayName: string): Promise<WorkbookParts> {
  try {
    const parts = await workbookParts(path, await unzipper().Open.file(path));
    if (parts.sheets.length === 0) throw new Error('no worksheet in it');
    return parts;
  } catch (error) {
    throw unreadable(displayName, error);
  }
}

/** The workbook's sheets, in the order it shows them (from its index: no sheet's rows are read). */
export async function xlsxSheetNames(path: string, displayName: string): Promise<string[]> {
  return (await openParts(path, displayName)).sheets.map((sheet) => sheet.name);
}

/** `place`: the row's number in the sheet, as the spreadsheet shows it. */
type RowHandler = (cells: string[], place: number) => boolean | void | Promise<void>;

/** A sheet's rows as text with their numbers, those the sheet leaves empty skipped. */
async function* sheetRows(
  parts: WorkbookParts,
  sheet: WorkbookParts['sheets'][number],
): AsyncGenerator<{ cells: string[]; place: number }> {
  for await (const row of parts.rowsOf(sheet) as AsyncIterable<ExcelJS.Row>) {
    const cells: string[] = [];
    row.eachCell({ includeEmpty: false }, (cell, column) => {
      cells[column - 1] = xlsxCellText(cell, parts.date1904);
    });
    for (let i = 0; i < cells.length; i += 1) cells[i] ??= '';
    if (cells.some((cell) => cell.trim() !== '')) yield { cells, place: row.number };
  }
}

/**
 * The first sheet whose first `sampleRows` rows `accept` takes (the workbook's first when none does), and
 * every sheet's name: the workbook is opened once for all of them, and a workbook of one sheet is not read.
 */
export async function firstSheetWhere(
  path: string,
  displayName: string,
  sampleRows: number,
  accept: (sample: string[][]) => boolean,
): Promise<{ sheet: string; sheets: string[] }> {
  const parts = await openParts(path, displayName);
  const sheets = parts.sheets.map((entry) => entry.name);
  try {
    for (const entry of sheets.length > 1 ? parts.sheets : []) {
      const sample: string[][] = [];
      for await (const { cells } of sheetRows(parts, entry)) if (sample.push(cells) >= sampleRows) break;
      if (accept(sample)) return { sheet: entry.name, sheets };
    }
  } catch (error) {
    throw unreadable(displayName, error);
  } finally {
    parts.close();
  }
  return { sheet: sheets[0]!, sheets };
}

/**
 * Calls `onRow` with each row of the sheet named `sheet` (the workbook's first when none), as text;
 * returning false stops early, a promise pauses the read. Rows the sheet leaves empty are skipped.
 * Answers the sheet read and every sheet's name.
 */
export async function readXlsxRows(
  path: string,
  displayName: string,
  onRow: RowHandler,
  sheet?: string,
): Promise<{ sheet: string; sheets: string[] }> {
  const parts = await openParts(path, displayName);
  const sheets = parts.sheets.map((entry) => entry.name);
  const chosen = sheet === undefined ? parts.sheets[0]! : parts.sheets.find((entry) => entry.name === sheet);
  if (!chosen)
    throw new AppError(
      'bad_request',
      `"${displayName}" has no sheet "${sheet}". Its sheets are: ${sheets.map((name) => `"${name}"`).join(', ')}.`,
    );
  try {
    for await (const { cells, place } of sheetRows(parts, chosen)) if ((await onRow(cells, place)) === false) break;
  } catch (error) {
    throw unreadable(displayName, error);
  } finally {
    parts.close();
  }
  return { sheet: chosen.name, sheets };
}
