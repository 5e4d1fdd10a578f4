// Spreadsheets as people keep them, from a terminal: a workbook's sheets named before anything is read,
// the one chosen cleaned with its cells as the spreadsheet shows them, the outputs written as workbooks
// on request; a damaged workbook refused in words; a do-not-mail list from a workbook; and a big workbook
// cleaned within the memory a CSV of the same rows takes (20,000 rows here, a million in the soak).
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { readXlsxRows } from '../../../electron/core/lists/xlsx-reader.ts';
import { writeCsvAsXlsx } from '../../../electron/core/lists/xlsx-writer.ts';
import { writeMarketingList } from '../../bench/marketing-list.ts';
import { runSiftHere } from '../../support/run-sift-here.ts';
import { writeWorkbook } from '../../support/workbook-parts.ts';

const bigRows = Number(process.env.SIFT_SOAK_WORKBOOK_ROWS ?? 20_000);
const inline = (cells: string[], row: number) =>
  `<row r="${row}">${cells.map((cell, i) => `<c r="${String.fromCharCode(65 + i)}${row}" t="inlineStr"><is><t>${cell}</t></is></c>`).join('')}</row>`;

const rowsOf = async (path: string) => {
  const rows: string[][] = [];
  await readXlsxRows(path, path, (cells) => void rows.push(cells));
  return rows;
};

/** `sift clean` in a process of its own that reports its peak memory. */
async function peakRssOfClean(input: string, env: Record<string, string>): Promise<number> {
  const report = `${input}.rss.json`;
  const child = spawn(
    process.execPath,
    [
      '--max-semi-space-size=16',
      new URL('../../bench/measured-sift.ts', import.meta.url).pathname,
      report,
      'clean',
      input,
    ],
    { env: { ...process.env, ...env }, stdio: 'ignore' },
  );
  const [code] = (await once(child, 'exit')) as [number];
  expect(code).toBe(0);
  return (JSON.parse(await readFile(report, 'utf8')) as { peakRssMb: number }).peakRssMb;
}

describe('sift clean on workbooks', () => {
  it('reads the sheet asked for as shown, writes workbooks on request, and refuses a damaged one', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'sift-workbook-cli-'));
    const env = { SIFT_DATA_DIR: join(dir, 'data') };
    const book = join(dir, 'members.xlsx');
    await writeWorkbook(book, {
      sheets: [
        { name: 'Notes', rows: [inline(['Exported from the CRM'], 1)] },
        {
          name: 'Members',
          rows: [
            inline(['Name', 'Email', 'Zip'], 1),
            inline(['Ann', 'valid.ann@shop.example', '00501'], 2),
            inline(['Bo', 'invalid.bo@shop.example', '02134'], 3),
            inline(['Cy', 'valid.cy@mall.example', '07001'], 4),
          ],
        },
      ],
    });

    // Named, a sheet without addresses is refused; unnamed, the first sheet with addresses is read.
    const notes = await runSiftHere(
      ['clean', book, '--sheet', 'Notes', '--out', await mkdtemp(join(dir, 'notes-'))],
      env,
    );
    expect(notes.code).toBe(2);
    expect(notes.stderr).toContain('has no column of email addresses');
    const guessed = await runSiftHere(['clean', book, '--out', await mkdtemp(join(dir, 'guessed-'))], env);
    expect(guessed.code, guessed.stderr).toBe(0);
    expect(guessed.stderr).toContain(
      'has 2 sheets ("Notes", "Members"): reading "Members", the first with email addresses; --sheet NAME reads another.',
    );
    expect(guessed.stdout).toContain('3 rows');
    const noSuchSheet = await runSiftHere(['clean', book, '--sheet', 'Nope'], env);
    expect(noSuchSheet.code).toBe(2);
    expect(noSuchSheet.stderr).toContain('has no sheet "Nope". Its sheets are: "Notes", "Members".');

    // The same sheet named is the list cleaned above: written again, as workbooks, nothing sent.
    const cleaned = await runSiftHere(['clean', book, '--sheet', 'Members', '--format', 'xlsx', '--json'], env);
    expect(cleaned.code, cleaned.stderr).toBe(0);
    const report = JSON.parse(cleaned.stdout);
    expect(report.cleaned).toMatch(/members\.demo\.cleaned\.xlsx$/);
    expect(await rowsOf(report.cleaned)).toEqual([
      ['Name', 'Email', 'Zip'],
      ['Ann', 'valid.ann@shop.example', '00501'],
      ['Cy', 'valid.cy@mall.example', '07001'],
    ]);
    const annotated = await rowsOf(report.annotated);
    expect(annotated[0]).toContain('sift_result');
    expect(annotated.map((row) => row[2])).toEqual(['Zip', '00501', '02134', '07001']);

    const cut = join(dir, 'cut.xlsx');
    await writeFile(cut, (await readFile(book)).subarray(0, 300));
    const damaged = await runSiftHere(['clean', cut], env);
    expect(damaged.code).toBe(2);
    expect(damaged.stderr).toContain('"cut.xlsx" is not an Excel workbook Sift can read');

    const unsubscribes = join(dir, 'unsubscribes.xlsx');
    await writeWorkbook(unsubscribes, {
      sheets: [
        { name: 'Sheet1', rows: [inline(['Email', 'When'], 1), inline(['valid.cy@mall.example', '2026-11-01'], 2)] },
      ],
    });
    expect((await runSiftHere(['suppress', 'add', unsubscribes], env)).stdout).toContain('unsubscribes.xlsx: 1 added');
    const again = await runSiftHere(['clean', book, '--sheet', 'Members', '--restart', '--json'], env);
    expect(JSON.parse(again.stdout).summary).toMatchObject({ suppressed: 1, to_check: 2 });
  }, 120_000);

  it(`cleans a ${bigRows.toLocaleString('en')}-row workbook within the memory the same rows take as CSV`, async () => {
    const dir = await mkdtemp(join(tmpdir(), 'sift-workbook-rss-'));
    // A list, a workbook and two cleans of them: not left behind for every npm test.
    onTestFinished(() => rm(dir, { recursive: true, force: true }));
    const csv = join(dir, 'list.csv');
    await writeMarketingList(csv, bigRows);
    const xlsx = join(dir, 'list.xlsx');
    await writeCsvAsXlsx(csv, xlsx, { delimiter: ',', sheetName: 'List', displayName: 'list.csv' });
    const csvRss = await peakRssOfClean(csv, { SIFT_DATA_DIR: join(dir, 'csv-data') });
    const xlsxRss = await peakRssOfClean(xlsx, { SIFT_DATA_DIR: join(dir, 'xlsx-data') });
    expect(xlsxRss).toBeLessThanOrEqual(csvRss * 1.1 + 20);
    const cleanedCsv = (await readFile(join(dir, 'list.demo.cleaned.csv'), 'utf8')).split('\r\n').length;
    expect(cleanedCsv).toBeGreaterThan(bigRows / 2);
  }, 1_800_000);
});
