// Workbooks written part by part, as Excel and other spreadsheets write them, for tests that must see
// what a reader makes of each kind of cell: shared and inline strings, numbers and dates by their
// number format, formulas with their cached values, sheets listed in an order their files are not in.
import { once } from 'node:events';
import { randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { Readable } from 'node:stream';
import archiver from 'archiver';

/** Strings of filler ('a's, packing a thousandfold, as a bomb's do) or of random letters (as text packs). */
type ManyStrings = { count: number; length: number; text?: 'filler' | 'random' };

/** A shared-strings part made a block at a time, never whole in memory. */
function* manyStrings({ count, length, text = 'filler' }: ManyStrings): Generator<string> {
  yield `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<sst xmlns="${main}" count="${count}">`;
  const perBlock = Math.max(1, Math.floor((256 * 1024) / (length + 16)));
  const filler = `<si><t>${'a'.repeat(length)}</t></si>`;
  for (let done = 0; done < count; done += perBlock) {
    const items = Math.min(perBlock, count - done);
    if (text === 'filler') yield filler.repeat(items);
    else {
      // One draw of random letters for the block, cut into its strings.
      const letters = randomBytes(Math.ceil((items * length * 3) / 4) + 3).toString('base64url');
      yield Array.from(
        { length: items },
        (_, i) => `<si><t>${letters.slice(i * length, (i + 1) * length)}</t></si>`,
      ).join('');
    }
  }
  yield '</sst>';
}

const main = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
const rel = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
const pkg = 'http://schemas.openxmlformats.org/package/2006/relationships';

export type SheetPart = { name: string; rows: string[] };

/**
 * Writes a workbook whose sheets are listed in `sheets` order but stored as sheet files in reverse (the
 * workbook's order is the one a reader must show). `rows` are `<row>` elements; `sharedStrings` the
 * `<si>` items; `numFmts` custom formats by id, used by the cell styles (`s="1"` is the first).
 */
export async function writeWorkbook(
  path: string,
  parts: {
    sheets: SheetPart[];
    sharedStrings?: string[];
    styles?: { numFmtId: number; formatCode?: string }[];
    /** The sheets stored before the shared strings, as some writers do. */
    sheetsFirst?: boolean;
    /** Shared strings made as they are zipped: `count` strings of `length` characters each. */
    manyStrings?: ManyStrings;
  },
): Promise<void> {
  const zip = archiver('zip');
  const file = createWriteStream(path);
  zip.pipe(file);
  const files = parts.sheets.map((_, i) => `sheet${parts.sheets.length - i}.xml`);
  const add = (name: string, xml: string) =>
    zip.append(`<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n${xml}`, { name });
  add(
    '[Content_Types].xml',
    `<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">` +
      `<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>` +
      `<Default Extension="xml" ContentType="application/xml"/>` +
      `<Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>` +
      files
        .map(
          (name) =>
            `<Override PartName="/xl/worksheets/${name}" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>`,
        )
        .join('') +
      `</Types>`,
  );
  add(
    '_rels/.rels',
    `<Relationships xmlns="${pkg}"><Relationship Id="rId1" Type="${rel}/officeDocument" Target="xl/workbook.xml"/></Relationships>`,
  );
  add(
    'xl/workbook.xml',
    `<workbook xmlns="${main}" xmlns:r="${rel}"><sheets>` +
      parts.sheets.map((sheet, i) => `<sheet name="${sheet.name}" sheetId="${i + 1}" r:id="rId${i + 1}"/>`).join('') +
      `</sheets></workbook>`,
  );
  add(
    'xl/_rels/workbook.xml.rels',
    `<Relationships xmlns="${pkg}">` +
      files
        .map((name, i) => `<Relationship Id="rId${i + 1}" Type="${rel}/worksheet" Target="worksheets/${name}"/>`)
        .join('') +
      (parts.sharedStrings || parts.manyStrings
        ? `<Relationship Id="rIdS" Type="${rel}/sharedStrings" Target="sharedStrings.xml"/>`
        : '') +
      (parts.styles ? `<Relationship Id="rIdT" Type="${rel}/styles" Target="styles.xml"/>` : '') +
      `</Relationships>`,
  );
  const addSheets = () =>
    parts.sheets.forEach((sheet, i) =>
      add(
        `xl/worksheets/${files[i]}`,
        `<worksheet xmlns="${main}"><sheetData>${sheet.rows.join('')}</sheetData></worksheet>`,
      ),
    );
  if (parts.sheetsFirst) addSheets();
  if (parts.sharedStrings)
    add(
      'xl/sharedStrings.xml',
      `<sst xmlns="${main}" count="${parts.sharedStrings.length}">${parts.sharedStrings.join('')}</sst>`,
    );
  if (parts.manyStrings) zip.append(Readable.from(manyStrings(parts.manyStrings)), { name: 'xl/sharedStrings.xml' });
  if (parts.styles) {
    const custom = parts.styles.filter((style) => style.formatCode);
    add(
      'xl/styles.xml',
      `<styleSheet xmlns="${main}">` +
        `<numFmts count="${custom.length}">${custom.map((style) => `<numFmt numFmtId="${style.numFmtId}" formatCode="${style.formatCode}"/>`).join('')}</numFmts>` +
        `<fonts count="1"><font><sz val="11"/><name val="Calibri"/></font></fonts>` +
        `<fills count="1"><fill><patternFill patternType="none"/></fill></fills>` +
        `<borders count="1"><border/></borders>` +
        `<cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs>` +
        `<cellXfs count="${parts.styles.length + 1}"><xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0"/>` +
        parts.styles
          .map(
            (style) =>
              `<xf numFmtId="${style.numFmtId}" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/>`,
          )
          .join('') +
        `</cellXfs></styleSheet>`,
    );
  }
  if (!parts.sheetsFirst) addSheets();
  const closed = once(file, 'close');
  await zip.finalize();
  await closed;
}
