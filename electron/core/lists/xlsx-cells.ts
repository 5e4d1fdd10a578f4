// A workbook cell as the spreadsheet shows it. Text is kept as typed (a postcode's leading zeros too);
// a number or a date goes through its number format (SheetJS' `ssf`, the formatter spreadsheets agree
// with); General shows a whole number in full (a phone number is not 4.91511E+12) and a fraction to 15
// digits, as a spreadsheet's cell does; a formula shows the value it had when the file was saved.
import type ExcelJS from 'exceljs';
import type Ssf from 'ssf';
import { createRequire } from 'node:module';
import { lazyPackage } from '../lazy-package.ts';

const require = createRequire(import.meta.url);

const ssf = lazyPackage<typeof Ssf>(() => require('ssf'));

const msPerDay = 86_400_000;
/** The serial number of 1970-01-01 in each of Excel's two date systems. */
const unixEpochSerial = { from1900: 25_569, from1904: 24_107 };

function generalNumber(value: number): string {
  if (Number.isInteger(value) && Math.abs(value) < 1e15) return String(value);
  return String(Number(value.toPrecision(15)));
}

/**
 * exceljs names two built-in formats by strings of its own; a spreadsheet shows them as the system's
 * short date (here, as Excel does in English: 3/15/2024) and short date with time.
 */
const shownAs: Readonly<Record<string, string>> = { 'mm-dd-yy': 'm/d/yyyy', 'm/d/yy "h":mm': 'm/d/yyyy h:mm' };

function formatNumber(value: number, format: string | undefined): string {
  const numFmt = format === undefined ? undefined : (shownAs[format] ?? format);
  if (!numFmt || numFmt === 'General') return generalNumber(value);
  try {
    return ssf().format(numFmt, value);
  } catch {
    // A format the formatter does not know: the number as General shows it.
    return generalNumber(value);
  }
}

/** exceljs turns a date-formatted number into a Date; the format wants the number back. */
function serialOf(date: Date, date1904: boolean): number {
  return date.getTime() / msPerDay + (date1904 ? unixEpochSerial.from1904 : unixEpochSerial.from1900);
}

function valueText(value: unknown, numFmt: string | undefined, date1904: boolean): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number') return formatNumber(value, numFmt);
  if (typeof value === 'boolean') return value ? 'TRUE' : 'FALSE';
  if (value instanceof Date) return formatNumber(serialOf(value, date1904), numFmt ?? 'yyyy-mm-dd');
  if (typeof value !== 'object') return String(value);
  if ('richText' in value) return (value as ExcelJS.CellRichTextValue).richText.map((run) => run.text).join('');
  if ('formula' in value || 'sharedFormula' in value)
    return valueText((value as ExcelJS.CellFormulaValue).result, numFmt, date1904);
  if ('error' in value) return String((value as ExcelJS.CellErrorValue).error);
  if ('text' in value) return String((value as { text: unknown }).text);
  return '';
}

/** exceljs' ValueType.Formula (its enums are not loaded for a type). */
const formulaType = 6;

export function xlsxCellText(cell: ExcelJS.Cell, date1904: boolean): string {
  // A formula's value as exceljs gives it leaves out a result of 0, FALSE or "" (it copies only truthy
  // fields): the cell's own result keeps it.
  if (cell.type === formulaType) return valueText(cell.result, cell.numFmt, date1904);
  return valueText(cell.value, cell.numFmt, date1904);
}
