// A workbook can name one huge shared string in every cell: copying its sheet as CSV would write gigabytes.
// A string of filler is refused as it unpacks; one of real text is refused by the copy, which takes no cell
// longer than a CSV cell may be and stops past its total, in words, leaving no partial file behind.
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { copySheetAsCsv } from '../../../../electron/core/lists/sheet-copy.ts';
import { runSiftHere } from '../../../support/run-sift-here.ts';
import { writeWorkbook } from '../../../support/workbook-parts.ts';

const dir = mkdtempSync(join(tmpdir(), 'sift-sheet-copy-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** `rows` rows whose one cell is shared string 0. */
const rows = (count: number) =>
  Array.from({ length: count }, (_, i) => `<row r="${i + 1}"><c r="A${i + 1}" t="s"><v>0</v></c></row>`);

describe('a sheet copied as CSV', () => {
  it('refuses a workbook of a few hundred KB that names one 32 MiB string of filler in 400 cells, before it copies', async () => {
    const path = join(dir, 'filler-cell.xlsx');
    await writeWorkbook(path, {
      sheets: [{ name: 'Sheet1', rows: rows(400) }],
      manyStrings: { count: 1, length: 32 * 1024 * 1024 },
    });
    expect(statSync(path).size).toBeLessThan(256 * 1024);
    const run = await runSiftHere(['clean', path], { SIFT_DATA_DIR: join(dir, 'data') });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(
      '"filler-cell.xlsx" unpacks its xl/sharedStrings.xml to more than 100 times its packed size: it is not read',
    );
    const written = readdirSync(dir, { recursive: true, encoding: 'utf8' });
    expect(written.filter((name) => /\.(csv|partial)$/.test(name))).toEqual([]);
  });

  it('refuses a cell longer than a CSV cell may be, in words, with nothing written', async () => {
    const path = join(dir, 'long-cell.xlsx');
    await writeWorkbook(path, {
      sheets: [{ name: 'Sheet1', rows: rows(400) }],
      manyStrings: { count: 1, length: 5 * 1024 * 1024, text: 'random' },
    });
    const run = await runSiftHere(['clean', path], { SIFT_DATA_DIR: join(dir, 'data') });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('"long-cell.xlsx" has a cell longer than 4 MB in row 1: it is not a list');
    const written = readdirSync(dir, { recursive: true, encoding: 'utf8' });
    expect(written.filter((name) => /\.(csv|partial)$/.test(name))).toEqual([]);
  });

  it('stops past its total, and leaves no partial copy', async () => {
    const path = join(dir, 'many-cells.xlsx');
    await writeWorkbook(path, {
      sheets: [{ name: 'Sheet1', rows: rows(40) }],
      manyStrings: { count: 1, length: 1024 * 1024, text: 'random' },
    });
    const csv = join(dir, 'copy.csv');
    await expect(
      copySheetAsCsv(path, csv, 'many-cells.xlsx', undefined, { copyChars: 8 * 1024 * 1024 }),
    ).rejects.toThrow('"many-cells.xlsx" unpacks to more than 8 MB of text by row 8, more than a list holds');
    expect(existsSync(csv)).toBe(false);
    expect(existsSync(`${csv}.partial`)).toBe(false);
  });
});
