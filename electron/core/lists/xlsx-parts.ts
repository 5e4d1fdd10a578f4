// A workbook's parts, taken from its zip by name (unzipper's directory) and parsed by exceljs' own part
// parsers: the relationships and the workbook (its sheets and their order), the styles (number formats),
// the shared strings, and a sheet's rows on request. The parsers are exceljs internals, of the exact
// version package.json pins; xlsx-reader.ts says why they are used this way.
import type { Readable } from 'node:stream';
import type ExcelJS from 'exceljs';
import type unzipper from 'unzipper';
import { createRequire } from 'node:module';
import { lazyPackage } from '../lazy-package.ts';

import { typedFormulaResults } from './xlsx-formula-results.ts';

const require = createRequire(import.meta.url);

const exceljs = lazyPackage<typeof ExcelJS>(() => require('exceljs'));
const worksheetReader = lazyPackage<
  new (options: {
    workbook: unknown;
    id: number;
    iterator: AsyncIterable<unknown>;
    options: unknown;
  }) => AsyncIterable<unknown>
>(() => require('exceljs/lib/stream/xlsx/worksheet-reader.js'));
const iterateStream = lazyPackage<(stream: Readable) => AsyncIterable<unknown>>(() =>
  require('exceljs/lib/utils/iterate-stream.js'),
);

/** What exceljs' workbook reader keeps of the parts it parsed (its fields, not a public interface). */
type ParsedBook = {
  options: unknown;
  sharedStrings?: unknown[];
  workbookRels?: { Id: string; Target: string; Type: string }[];
  model?: { sheets?: { name: string; id: number; rId: string }[] };
  properties?: { date1904?: boolean };
  _parseRels(entry: Readable): Promise<void>;
  _parseWorkbook(entry: Readable): Promise<void>;
  _parseStyles(entry: Readable): Promise<void>;
  _parseSharedStrings(entry: Readable): AsyncIterable<unknown>;
};

type SheetEntry = { name: string; id: number; part: string };

export type WorkbookParts = {
  /** The worksheets, in the order the workbook shows them. */
  sheets: SheetEntry[];
  date1904: boolean;
  rowsOf(sheet: SheetEntry): AsyncIterable<unknown>;
  close(): void;
};

/** A part's name as the zip holds it: some writers begin names with a slash. */
const partName = (name: string) => name.replace(/^\/+/, '');

export async function workbookParts(directory: unzipper.CentralDirectory): Promise<WorkbookParts> {
  const files = new Map(directory.files.map((file) => [partName(file.path), file]));
  const opened: Readable[] = [];
  const stream = (name: string): Readable | undefined => {
    const file = files.get(name);
    if (!file) return undefined;
    const readable = file.stream() as unknown as Readable;
    opened.push(readable);
    return readable;
  };
  const book = new (exceljs().stream.xlsx.WorkbookReader)('', {
    sharedStrings: 'cache',
    styles: 'cache',
    hyperlinks: 'ignore',
    worksheets: 'emit',
    entries: 'ignore',
  }) as unknown as ParsedBook;
  const required = (name: string) => {
    const readable = stream(name);
    if (!readable) throw new Error(`${name} is missing`);
    return readable;
  };
  await book._parseRels(required('xl/_rels/workbook.xml.rels'));
  await book._parseWorkbook(required('xl/workbook.xml'));
  const styles = stream('xl/styles.xml');
  if (styles) await book._parseStyles(styles);
  // The shared strings (most of a big workbook's text) only once rows are read: naming the sheets is quick.
  let stringsRead: Promise<void> | undefined;
  const readStrings = async () => {
    const sharedStrings = stream('xl/sharedStrings.xml');
    if (sharedStrings) for await (const _ of book._parseSharedStrings(sharedStrings));
    else book.sharedStrings = [];
  };

  const sheets: SheetEntry[] = [];
  for (const sheet of book.model?.sheets ?? []) {
    const rel = book.workbookRels?.find((candidate) => candidate.Id === sheet.rId);
    // Chart sheets have no rows: only worksheets are lists.
    if (!rel || !/\/worksheet$/.test(rel.Type)) continue;
    const part = rel.Target.startsWith('/') ? partName(rel.Target) : `xl/${rel.Target}`;
    if (files.has(part)) sheets.push({ name: sheet.name, id: sheet.id, part });
  }
  return {
    sheets,
    date1904: book.properties?.date1904 === true,
    async *rowsOf(sheet) {
      await (stringsRead ??= readStrings());
      yield* new (worksheetReader())({
        workbook: book,
        id: sheet.id,
        iterator: typedFormulaResults(iterateStream()(required(sheet.part)) as AsyncIterable<Buffer>),
        options: book.options,
      });
    },
    close: () => {
      for (const readable of opened) readable.destroy();
    },
  };
}
