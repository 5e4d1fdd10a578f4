// The first rows of a dropped list, parsed in main so the renderer never holds the file.
import { stat } from 'node:fs/promises';
import { basename } from 'node:path';
import Papa from 'papaparse';
import { AppError } from '../../common/app-error.ts';
import type { ListPreview } from '../../common/contract.ts';
import { openDecodedText, readHead, sniffEncoding } from './text-decoding.ts';

export async function previewCsv(path: string, maxRows: number, displayName = basename(path)): Promise<ListPreview> {
  const info = await stat(path).catch(() => {
    throw new AppError('unreadable_file', `Sift cannot open "${displayName}". It may have been moved or deleted.`);
  });
  if (!info.isFile()) throw new AppError('unreadable_file', `"${displayName}" is not a file.`);
  if (info.size === 0) throw new AppError('unreadable_file', `"${displayName}" is empty.`);

  const sniff = sniffEncoding(await readHead(path));
  const text = openDecodedText(path, sniff);
  const rows: string[][] = [];
  let delimiter = ',';
  let hasMoreRows = false;

  await new Promise<void>((resolve, reject) => {
    Papa.parse<string[]>(text as unknown as File, {
      skipEmptyLines: 'greedy',
      step(result, parser) {
        delimiter = result.meta.delimiter;
        if (rows.length > maxRows) {
          hasMoreRows = true;
          parser.abort();
          return;
        }
        rows.push(result.data.map((cell) => String(cell)));
      },
      complete: () => resolve(),
      error: (error: Error) => reject(error),
    });
  }).finally(() => text.destroy());

  if (rows.length === 0) throw new AppError('unreadable_file', `"${displayName}" has no rows.`);
  const [headers, ...dataRows] = rows as [string[], ...string[][]];
  return { fileName: displayName, sizeBytes: info.size, delimiter, headers, rows: dataRows, hasMoreRows };
}
