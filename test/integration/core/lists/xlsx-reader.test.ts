// Workbooks read as a spreadsheet shows them: shared and inline strings, leading zeros kept, dates and
// numbers through their formats, formulas by their cached values, sheets in the workbook's order; a
// damaged workbook or an old .xls is refused in words; and what Sift writes as .xlsx reads back the same.
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { readXlsxRows, xlsxSheetNames, isWorkbookFile } from '../../../../electron/core/lists/xlsx-reader.ts';
import { writeCsvAsXlsx } from '../../../../electron/core/lists/xlsx-writer.ts';
import { sheetToRead } from '../../../../electron/core/lists/sheet-guess.ts';
import { writeWorkbook } from '../../../support/workbook-parts.ts';

let dir: string;
let book: string;

const rowsOf = async (path: string, sheet?: string) => {
  const rows: string[][] = [];
  await readXlsxRows(path, 'book.xlsx', (cells) => void rows.push(cells), sheet);
  return rows;
};

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'sift-xlsx-'));
  book = join(dir, 'book.xlsx');
  await writeWorkbook(book, {
    sharedStrings: [
      '<si><t>Name</t></si>',
      '<si><t>Email</t></si>',
      '<si><t>Zip</t></si>',
      '<si><t>Joined</t></si>',
      '<si><r><t>ann@</t></r><r><rPr><b/></rPr><t>example.com</t></r></si>',
      '<si><t>00501</t></si>',
    ],
    styles: [{ numFmtId: 14 }, { numFmtId: 164, formatCode: 'yyyy-mm-dd' }, { numFmtId: 165, formatCode: '0.00' }],
    sheets: [
      { name: 'Notes', rows: ['<row r="1"><c r="A1" t="inlineStr"><is><t>Read me first</t></is></c></row>'] },
      {
        name: 'Contacts',
        rows: [
          '<row r="1"><c r="A1" t="s"><v>0</v></c><c r="B1" t="s"><v>1</v></c><c r="C1" t="s"><v>2</v></c><c r="D1" t="s"><v>3</v></c><c r="E1" t="inlineStr"><is><t>Score</t></is></c></row>',
          // Shared rich text, a zip code stored as text, a date by a built-in and a custom format, a fixed format.
          '<row r="2"><c r="A2" t="inlineStr"><is><t>Ann</t></is></c><c r="B2" t="s"><v>4</v></c><c r="C2" t="s"><v>5</v></c><c r="D2" s="1"><v>45366</v></c><c r="E2" s="3"><v>7.5</v></c></row>',
          '<row r="3"><c r="A3" t="inlineStr"><is><t>Bo</t></is></c><c r="B3" t="inlineStr"><is><t>bo@example.org</t></is></c><c r="C3" t="inlineStr"><is><t>02134</t></is></c><c r="D3" s="2"><v>45000</v></c><c r="E3"><v>0.30000000000000004</v></c></row>',
          // A blank row is skipped; a row with a gap keeps its columns.
          '<row r="4"></row>',
          '<row r="5"><c r="A5" t="str"><f>"C"&amp;"y"</f><v>Cy</v></c><c r="B5" t="inlineStr"><is><t>cy@example.net</t></is></c><c r="D5"><f>1+1</f><v>2</v></c><c r="E5"><v>4915112345678</v></c></row>',
          '<row r="6"><c r="A6" t="b"><v>1</v></c><c r="B6" t="inlineStr"><is><t>dee@example.com</t></is></c><c r="C6" t="e"><v>#N/A</v></c></row>',
        ],
      },
    ],
  });
});

describe('reading a workbook', () => {
  it('lists its sheets in the order it shows them, and reads the first unless told', async () => {
    expect(await isWorkbookFile(book)).toBe(true);
    expect(await xlsxSheetNames(book, 'book.xlsx')).toEqual(['Notes', 'Contacts']);
    expect(await rowsOf(book)).toEqual([['Read me first']]);
    await expect(rowsOf(book, 'Nope')).rejects.toThrow(
      '"book.xlsx" has no sheet "Nope". Its sheets are: "Notes", "Contacts".',
    );
  });

  it('reads a list from its first sheet with email addresses when none is named', async () => {
    expect(await sheetToRead(book, 'book.xlsx')).toEqual({ sheet: 'Contacts', sheets: ['Notes', 'Contacts'] });
    // No sheet with addresses: the first, whose error the import then gives; a CSV is no workbook.
    const notes = join(dir, 'notes.xlsx');
    await writeWorkbook(notes, {
      sheets: ['One', 'Two'].map((name) => ({
        name,
        rows: [`<row r="1"><c r="A1" t="inlineStr"><is><t>${name}</t></is></c></row>`],
      })),
    });
    expect(await sheetToRead(notes, 'notes.xlsx')).toEqual({ sheet: 'One', sheets: ['One', 'Two'] });
    const csv = join(dir, 'list.csv');
    await writeFile(csv, 'email\nann@example.com\n');
    expect(await sheetToRead(csv, 'list.csv')).toBeUndefined();
  });

  it('keeps a cell that shows 0, FALSE, an empty string or an error, from a formula or typed', async () => {
    const zeros = join(dir, 'zeros.xlsx');
    const cell = (ref: string, inner: string, type = '') => `<c r="${ref}"${type ? ` t="${type}"` : ''}>${inner}</c>`;
    await writeWorkbook(zeros, {
      sharedStrings: ['<si><t>email</t></si>', '<si><t></t></si>'],
      sheets: [
        {
          name: 'Sheet1',
          rows: [
            `<row r="1">${cell('A1', '<v>0</v>', 's')}${cell('B1', '<is><t>note</t></is>', 'inlineStr')}</row>`,
            // Formulas, with the values Excel cached for them: =0*2, =1=2, ="", =1/0, =1=1.
            '<row r="2">' +
              cell('A2', '<is><t>ann@example.com</t></is>', 'inlineStr') +
              cell('B2', '<f>0*2</f><v>0</v>') +
              cell('C2', '<f>1=2</f><v>0</v>', 'b') +
              cell('D2', '<f>""</f><v></v>', 'str') +
              cell('E2', '<f>1/0</f><v>#DIV/0!</v>', 'e') +
              cell('F2', '<f>1=1</f><v>1</v>', 'b') +
              '</row>',
            // The same values typed: 0, FALSE, an empty shared string, an error.
            '<row r="3">' +
              cell('A3', '<is><t>bo@example.com</t></is>', 'inlineStr') +
              cell('B3', '<v>0</v>') +
              cell('C3', '<v>0</v>', 'b') +
              cell('D3', '<v>1</v>', 's') +
              cell('E3', '<v>#DIV/0!</v>', 'e') +
              cell('F3', '<v>1</v>', 'b') +
              '</row>',
          ],
        },
      ],
    });
    expect(await rowsOf(zeros)).toEqual([
      ['email', 'note'],
      ['ann@example.com', '0', 'FALSE', '', '#DIV/0!', 'TRUE'],
      ['bo@example.com', '0', 'FALSE', '', '#DIV/0!', 'TRUE'],
    ]);
  });

  it('gives each cell as the spreadsheet shows it', async () => {
    expect(await rowsOf(book, 'Contacts')).toEqual([
      ['Name', 'Email', 'Zip', 'Joined', 'Score'],
      ['Ann', 'ann@example.com', '00501', '3/15/2024', '7.50'],
      ['Bo', 'bo@example.org', '02134', '2023-03-15', '0.3'],
      ['Cy', 'cy@example.net', '', '2', '4915112345678'],
      ['TRUE', 'dee@example.com', '#N/A'],
    ]);
  });

  it('gives each row with its number in the sheet, a blank row counted as the spreadsheet counts it', async () => {
    const places: number[] = [];
    await readXlsxRows(book, 'book.xlsx', (_cells, place) => void places.push(place), 'Contacts');
    expect(places).toEqual([1, 2, 3, 5, 6]);
  });

  it('reads any sheet of a workbook whose sheets are stored before its shared strings', async () => {
    const late = join(dir, 'late.xlsx');
    await writeWorkbook(late, {
      sheetsFirst: true,
      sharedStrings: ['<si><t>Email</t></si>', '<si><t>ann@example.com</t></si>'],
      sheets: [
        { name: 'First', rows: ['<row r="1"><c r="A1" t="inlineStr"><is><t>x</t></is></c></row>'] },
        {
          name: 'Second',
          rows: ['<row r="1"><c r="A1" t="s"><v>0</v></c></row>', '<row r="2"><c r="A2" t="s"><v>1</v></c></row>'],
        },
      ],
    });
    expect(await rowsOf(late, 'Second')).toEqual([['Email'], ['ann@example.com']]);
  });

  it('refuses a workbook cut short, and an old .xls, in words', async () => {
    const cut = join(dir, 'cut.xlsx');
    const whole = await readFile(book);
    await writeFile(cut, whole.subarray(0, Math.floor(whole.length / 2)));
    await expect(rowsOf(cut, 'Contacts')).rejects.toMatchObject({
      code: 'unreadable_file',
      message: expect.stringContaining(
        'is not an Excel workbook Sift can read: it may be damaged or only partly copied',
      ),
    });
    const xls = join(dir, 'old.xls');
    await writeFile(xls, Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1, 0, 0]));
    await expect(isWorkbookFile(xls)).rejects.toThrow('This is an old Excel file (.xls)');
    expect(await isWorkbookFile(join(dir, 'missing.xlsx'))).toBe(false);
  });

  it('reads back what Sift writes as .xlsx, cell for cell', async () => {
    const rows = [
      ['Email', 'Zip', 'Note', 'Big'],
      ['ann@example.com', '00501', '=HYPERLINK("x")', '4915112345678'],
      ['bo@example.org', '', ' spaced <&> "quoted" ', 'Ünïcödé ✓'],
      ['cy@example.net', '007', 'bell\u0007gone', ''],
    ];
    const csv = join(dir, 'out.csv');
    await writeFile(
      csv,
      rows.map((cells) => cells.map((cell) => `"${cell.replaceAll('"', '""')}"`).join(',')).join('\r\n'),
    );
    const xlsx = join(dir, 'out.xlsx');
    await writeCsvAsXlsx(csv, xlsx, { delimiter: ',', sheetName: 'cleaned', displayName: 'out.csv' });
    expect(await xlsxSheetNames(xlsx, 'out.xlsx')).toEqual(['cleaned']);
    const back = await rowsOf(xlsx);
    expect(back).toEqual([rows[0], rows[1], rows[2], ['cy@example.net', '007', 'bellgone']]);
  });
});
