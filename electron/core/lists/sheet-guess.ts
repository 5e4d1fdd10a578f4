// Which sheet of a workbook a list is read from when nobody chose one: the first with a column of email
// addresses, since a cover or notes sheet often comes first. The app and `sift clean` both ask here.
import { detectLayout, layoutSampleRows } from './email-column.ts';
import { firstSheetWhere, isWorkbookFile } from './xlsx-reader.ts';

/** For a workbook, the sheet to read and every sheet's name; undefined for a list that is not a workbook. */
export async function sheetToRead(
  path: string,
  displayName: string,
): Promise<{ sheet: string; sheets: string[] } | undefined> {
  if (!(await isWorkbookFile(path))) return undefined;
  return firstSheetWhere(path, displayName, layoutSampleRows, (sample) => {
    try {
      detectLayout(sample, displayName);
      return true;
    } catch {
      return false;
    }
  });
}
