// The CSV reader's bounds: a quote that never closes is refused with the row it opened on, without
// reading the rest of the file into one cell; formula signs are guarded however they are written.
import { spawnSync } from 'node:child_process';
import { mkdtemp, open, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readCsvRows } from '../../../../electron/core/lists/csv-reader.ts';
import { neutraliseFormula } from '../../../../electron/core/lists/formula-guard.ts';

async function listWithOpenQuote(path: string, megabytes: number) {
  const file = await open(path, 'w');
  await file.write('email,note\na@example.com,fine\nb@example.com,"never closed\n');
  const block = 'c@example.com,more text after the open quote\n'.repeat(20_000);
  for (let written = 0; written < megabytes * 1024 * 1024; written += block.length) await file.write(block);
  await file.close();
}

describe('reading a list with a quote that never closes', () => {
  it('refuses it and names the row where the quote opened', async () => {
    const path = join(await mkdtemp(join(tmpdir(), 'sift-quote-')), 'open-quote.csv');
    await listWithOpenQuote(path, 12);
    const rows: string[][] = [];
    await expect(readCsvRows(path, 'open-quote.csv', (row) => void rows.push(row))).rejects.toMatchObject({
      code: 'unreadable_file',
      message: expect.stringContaining('quote that never closes in row 3'),
    });
    expect(rows).toEqual([
      ['email', 'note'],
      ['a@example.com', 'fine'],
    ]);
  });

  it('says so in a small file too, where the parser reaches the end', async () => {
    const path = join(await mkdtemp(join(tmpdir(), 'sift-quote-')), 'small.csv');
    await writeFile(path, 'email,note\na@example.com,"open\nb@example.com,x\n');
    await expect(readCsvRows(path, 'small.csv', () => {})).rejects.toMatchObject({
      message: expect.stringContaining('row 2'),
    });
  });

  it('holds memory flat however large the file is', async () => {
    const path = join(await mkdtemp(join(tmpdir(), 'sift-quote-')), 'huge.csv');
    await listWithOpenQuote(path, 96);
    // With a 48 MB heap, reading 96 MB into one cell would end the process; a bounded reader refuses it.
    const reader = new URL('../../../../electron/core/lists/csv-reader.ts', import.meta.url).pathname;
    const script = `import { readCsvRows } from ${JSON.stringify(reader)};
      await readCsvRows(${JSON.stringify(path)}, 'huge.csv', () => {}).catch((error) => console.log(error.message));`;
    const child = spawnSync(process.execPath, ['--max-old-space-size=48', '--input-type=module', '-e', script], {
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(child.status).toBe(0);
    expect(child.stdout).toContain('never closes in row 3');
  }, 90_000);
});

describe('reading a list with blank lines', () => {
  it('skips them, and gives each row with its place in the file as a spreadsheet numbers it', async () => {
    const path = join(await mkdtemp(join(tmpdir(), 'sift-blank-')), 'blank.csv');
    await writeFile(path, 'email,note\r\n\r\na@example.com,"two\nlines"\r\n   \r\n,\r\nb@example.com,x\r\n');
    const rows: [string[], number][] = [];
    await readCsvRows(path, 'blank.csv', (row, place) => void rows.push([row, place]));
    expect(rows).toEqual([
      [['email', 'note'], 1],
      [['a@example.com', 'two\nlines'], 3],
      // A row of empty cells is a row; a line of spaces is not.
      [['', ''], 5],
      [['b@example.com', 'x'], 6],
    ]);
  });

  it('guesses the delimiter as if they were not there', async () => {
    const path = join(await mkdtemp(join(tmpdir(), 'sift-blank-')), 'semicolons.csv');
    await writeFile(path, 'email;note\n\n\na@example.com;1\n\n\nb@example.com;2\n\n\n');
    const rows: string[][] = [];
    const read = await readCsvRows(path, 'semicolons.csv', (row) => void rows.push(row));
    expect(read.delimiter).toBe(';');
    expect(rows).toEqual([
      ['email', 'note'],
      ['a@example.com', '1'],
      ['b@example.com', '2'],
    ]);
  });
});

describe('neutraliseFormula', () => {
  it.each([
    '=1+1',
    ' =1+1',
    '  +1 555',
    '-2',
    '@SUM(A1)',
    '\tx',
    '\rx',
    '＝1',
    '＋1',
    '－1',
    '＠x',
    '﹢1',
    '﹣1',
    '﹦1',
  ])('guards %j', (cell) => expect(neutraliseFormula(cell)).toBe(`'${cell}`));
  it.each(['ann@example.com', '', '  ', 'a=b', '12-3'])('leaves %j alone', (cell) =>
    expect(neutraliseFormula(cell)).toBe(cell),
  );
});
