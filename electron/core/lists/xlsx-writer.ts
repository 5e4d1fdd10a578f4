// An export written as an Excel workbook (.xlsx) rather than CSV: the CSV the export wrote, copied row by
// row into a one-sheet workbook as it streams, every cell as text (an inline string), so leading zeros and
// long numbers stay exactly as they were and nothing is taken for a formula. The zip is archiver's; the
// sheet's XML is written here into a stream archiver pulls from, so a million rows wait on the disk
// instead of gathering in memory (exceljs' own stream writer does not wait: 630 MB for a million rows).
import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import { PassThrough } from 'node:stream';
import type Archiver from 'archiver';
import { createRequire } from 'node:module';
import { lazyPackage } from '../lazy-package.ts';
import { AppError } from '../../common/app-error.ts';
import { readCsvRows } from './csv-reader.ts';
import { writeFailure } from './csv-writer.ts';

const require = createRequire(import.meta.url);

const archiver = lazyPackage<typeof Archiver>(() => require('archiver'));

/** A sheet holds at most this many rows, its header among them. */
const maxSheetRows = 1_048_576;
/** A cell holds at most this many characters. */
const maxCellChars = 32_767;

const main = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
const relationships = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
const packageRelationships = 'http://schemas.openxmlformats.org/package/2006/relationships';
const declaration = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n';

const parts = (sheetName: string): [string, string][] => [
  [
    '[Content_Types].xml',
    `<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">` +
      `<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>` +
      `<Default Extension="xml" ContentType="application/xml"/>` +
      `<Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>` +
      `<Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>` +
      `</Types>`,
  ],
  [
    '_rels/.rels',
    `<Relationships xmlns="${packageRelationships}">` +
      `<Relationship Id="rId1" Type="${relationships}/officeDocument" Target="xl/workbook.xml"/></Relationships>`,
  ],
  [
    'xl/workbook.xml',
    `<workbook xmlns="${main}" xmlns:r="${relationships}"><sheets>` +
      `<sheet name="${escapeXml(sheetName)}" sheetId="1" r:id="rId1"/></sheets></workbook>`,
  ],
  [
    'xl/_rels/workbook.xml.rels',
    `<Relationships xmlns="${packageRelationships}">` +
      `<Relationship Id="rId1" Type="${relationships}/worksheet" Target="worksheets/sheet1.xml"/></Relationships>`,
  ],
];

/** XML text: the five marks escaped, and characters XML cannot hold (most control characters) left out. */
function escapeXml(text: string): string {
  // XML 1.0 has no way to write these characters at all.
  // eslint-disable-next-line no-control-regex
  const unwritable = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g;
  return text.replace(unwritable, '').replace(/[&<>"']/g, (mark) => `&#${mark.charCodeAt(0)};`);
}

/** A column's letters: 0 → A, 25 → Z, 26 → AA. */
function columnName(index: number): string {
  let name = '';
  for (let n = index + 1; n > 0; n = Math.floor((n - 1) / 26)) name = String.fromCharCode(65 + ((n - 1) % 26)) + name;
  return name;
}

function rowXml(cells: readonly string[], row: number, columns: string[]): string {
  let xml = `<row r="${row}">`;
  cells.forEach((cell, index) => {
    if (cell === '') return;
    columns[index] ??= columnName(index);
    const text = cell.length > maxCellChars ? cell.slice(0, maxCellChars) : cell;
    const space = /^\s|\s$/.test(text) ? ' xml:space="preserve"' : '';
    xml += `<c r="${columns[index]}${row}" t="inlineStr"><is><t${space}>${escapeXml(text)}</t></is></c>`;
  });
  return `${xml}</row>`;
}

/** Copies the CSV at `csvPath` (cells split on `delimiter`) into a workbook at `xlsxPath`. */
export async function writeCsvAsXlsx(
  csvPath: string,
  xlsxPath: string,
  options: { delimiter: string; sheetName: string; displayName: string },
): Promise<void> {
  // Excel allows 31 characters in a sheet's name, and none of : \ / ? * [ ].
  const sheetName = options.sheetName.replace(/[:\\/?*[\]]/g, ' ').slice(0, 31) || 'Sheet1';
  const zip = archiver()('zip', { zlib: { level: 6 } });
  const file = createWriteStream(xlsxPath);
  const written = once(file, 'close');
  zip.pipe(file);
  for (const [name, xml] of parts(sheetName)) zip.append(declaration + xml, { name });
  const sheet = new PassThrough({ highWaterMark: 1 << 20 });
  zip.append(sheet, { name: 'xl/worksheets/sheet1.xml' });
  const finished = zip.finalize();
  // Rows are gathered into strings of some 64 KB: a write and a wait per row would cost more than the XML.
  let pending = '';
  const flush = () => {
    const full = sheet.write(pending);
    pending = '';
    return full ? undefined : once(sheet, 'drain').then(() => undefined);
  };
  const write = (text: string) => {
    pending += text;
    return pending.length >= 1 << 16 ? flush() : undefined;
  };
  try {
    let row = 0;
    const columns: string[] = [];
    await write(`${declaration}<worksheet xmlns="${main}"><sheetData>`);
    await readCsvRows(
      csvPath,
      options.displayName,
      (cells) => {
        row += 1;
        if (row > maxSheetRows)
          throw new AppError(
            'bad_request',
            `An Excel sheet holds at most ${maxSheetRows.toLocaleString('en')} rows: export this list as CSV.`,
          );
        return write(rowXml(cells, row, columns));
      },
      { delimiter: options.delimiter },
    );
    pending += '</sheetData></worksheet>';
    await flush();
    sheet.end();
    await finished;
    await written;
  } catch (error) {
    sheet.destroy();
    zip.abort();
    file.destroy();
    if (error instanceof AppError) throw error;
    throw writeFailure(error, xlsxPath);
  }
}
