// The first rows of a dropped list, parsed in main so the renderer never holds the file.
import { stat } from 'node:fs/promises';
import { basename } from 'node:path';
import { AppError } from '../../common/app-error.ts';
import type { ListPreview } from '../../common/contract.ts';
import { readCsvRows } from './csv-reader.ts';

export async function previewCsv(path: string, maxRows: number, displayName = basename(path)): Promise<ListPreview> {
  const rows: string[][] = [];
  let hasMoreRows = false;
  const { delimiter } = await readCsvRows(path, displayName, (row) => {
    // The header plus maxRows data rows; one more row only tells us that more follow.
    if (rows.length > maxRows) {
      hasMoreRows = true;
      return false;
    }
    rows.push(row.map(String));
  });
  if (rows.length === 0) throw new AppError('unreadable_file', `"${displayName}" has no rows.`);
  const [headers, ...dataRows] = rows as [string[], ...string[][]];
  const { size } = await stat(path);
  return { fileName: displayName, sizeBytes: size, delimiter, headers, rows: dataRows, hasMoreRows };
}
