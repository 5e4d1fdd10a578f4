// A workbook's parts, taken from its zip by name (unzipper's directory) and parsed by exceljs' own part
// parsers: the relationships and the workbook (its sheets and their order), the styles (number formats),
// and a sheet's rows on request; the shared strings are read by xlsx-shared-strings.ts. The parsers are exceljs internals, of the exact
// version package.json pins; xlsx-reader.ts says why they are used this way.
import { Transform, type Readable } from 'node:stream';
import type ExcelJS from 'exceljs';
import type unzipper from 'unzipper';
import { createRequire } from 'node:module';
import { lazyPackage } from '../lazy-package.ts';

import { typedFormulaResults } from './xlsx-formula-results.ts';
import { readSharedStrings } from './xlsx-shared-strings.ts';
import { heldPart } from './xlsx-held-part.ts';

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
};

type SheetEntry = { name: string; id: number; part: string };

export type WorkbookParts = {
  /** The worksheets, in the order the workbook shows them. */
  sheets: SheetEntry[];
  date1904: boolean;
  rowsOf(sheet: SheetEntry): AsyncIterable<unknown>;
  close(): void;
};

/**
 * What a workbook's parts may unpack to: the shared strings are held in memory while a sheet is read, so
 * they are bounded in bytes and in count (a 4.6 MB file can unpack to gigabytes); the small parts too. A
 * sheet's own part is streamed row by row and may be as large as a list is.
 */
const workbookLimits = {
  sharedStringsBytes: 64 * 1024 * 1024,
  sharedStrings: 2_000_000,
  smallPartBytes: 16 * 1024 * 1024,
  // Shared strings that unpack to more than 100 times the packed bytes read, once past 100 KiB, are a
  // bomb: Apache POI's ZipSecureFile refuses any part so (MIN_INFLATE_RATIO 0.01, GRACE_ENTRY_SIZE 100 KiB).
  // Distinct strings, as a list's are, pack by 3 to 10 times; only filler packs a hundredfold. So a bomb is
  // refused in its first MiBs, not at the byte limit with 64 MiB held. (Not the styles: a workbook's
  // thousands of near-identical cell formats may pack that well.)
  minPackedRatio: 0.01,
  ratioGraceBytes: 100 * 1024,
};

/** A workbook past one of `workbookLimits`: said in words, as the file's own fault. */
export class WorkbookLimitError extends Error {}

const mib = (bytes: number) => `${bytes / 1024 / 1024} MiB`;

/**
 * The part's bytes as they unpack, stopped with a WorkbookLimitError past `limit` bytes, `maxItems` `<si>`s,
 * or, when `packedRead` counts the packed bytes taken, a hundred times those.
 */
function bounded(
  readable: Readable,
  name: string,
  limit: number,
  { maxItems = Infinity, packedRead }: { maxItems?: number; packedRead?: () => number } = {},
): Readable {
  let size = 0;
  let items = 0;
  let tail = '';
  const refuse = (done: (error: Error) => void, words: string) =>
    done(new WorkbookLimitError(`${words}: it is not read (a damaged or hostile file).`));
  const counted = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      size += chunk.length;
      if (packedRead && size > workbookLimits.ratioGraceBytes && packedRead() < size * workbookLimits.minPackedRatio)
        return refuse(
          done,
          `unpacks its ${name} to more than ${1 / workbookLimits.minPackedRatio} times its packed size`,
        );
      if (size > limit) return refuse(done, `unpacks its ${name} to more than ${mib(limit)}, more than a list holds`);
      if (Number.isFinite(maxItems)) {
        // Counted as the bytes pass, before the parser holds any of them (a tag may straddle two chunks).
        const text = tail + chunk.toString('latin1');
        items += text.match(/<si[ >]/g)?.length ?? 0;
        tail = text.slice(-3);
        if (items > maxItems)
          return refuse(
            done,
            `holds more than ${maxItems.toLocaleString('en')} shared strings, more than a list holds`,
          );
      }
      done(null, chunk);
    },
  });
  readable.once('error', (error) => counted.destroy(error));
  return readable.pipe(counted);
}

/** A part's name as the zip holds it: some writers begin names with a slash. */
const partName = (name: string) => name.replace(/^\/+/, '');

/** The parts of the workbook at `path`, whose zip directory is `directory`. */
export async function workbookParts(path: string, directory: unzipper.CentralDirectory): Promise<WorkbookParts> {
  const files = new Map(directory.files.map((file) => [partName(file.path), file]));
  const opened: Readable[] = [];
  const stream = (name: string, limit = workbookLimits.smallPartBytes): Readable | undefined => {
    const file = files.get(name);
    if (!file) return undefined;
    const readable = file.stream() as unknown as Readable;
    opened.push(readable);
    return Number.isFinite(limit) ? bounded(readable, name, limit) : readable;
  };
  const book = new (exceljs().stream.xlsx.WorkbookReader)('', {
    sharedStrings: 'cache',
    styles: 'cache',
    hyperlinks: 'ignore',
    worksheets: 'emit',
    entries: 'ignore',
  }) as unknown as ParsedBook;
  const required = (name: string, limit?: number) => {
    const readable = stream(name, limit);
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
    const name = 'xl/sharedStrings.xml';
    const file = files.get(name);
    if (!file) return void (book.sharedStrings = []);
    const part = await heldPart(path, file);
    opened.push(part.unpacked);
    book.sharedStrings = await readSharedStrings(
      bounded(part.unpacked, name, workbookLimits.sharedStringsBytes, {
        maxItems: workbookLimits.sharedStrings,
        packedRead: part.packedRead,
      }),
    );
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
        iterator: typedFormulaResults(iterateStream()(required(sheet.part, Infinity)) as AsyncIterable<Buffer>),
        options: book.options,
      });
    },
    close: () => {
      for (const readable of opened) readable.destroy();
    },
  };
}
