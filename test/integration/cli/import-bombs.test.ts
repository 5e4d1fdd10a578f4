// Files that would take all of a computer's memory if read whole: a workbook whose shared strings unpack
// to far more than its size, one with millions of them, and a text file of one endless line. `sift rules`
// and `sift suppress` (the app's Rules and do-not-mail imports read the same way) stop each at its stated
// limit with words and exit 2, and the process stays small while it reads.
import { mkdtempSync, rmSync, statSync, writeFileSync, createWriteStream, readFileSync } from 'node:fs';
import { once } from 'node:events';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runSift, type SiftRun } from '../../support/run-sift.ts';
import { writeWorkbook } from '../../support/workbook-parts.ts';

let dir = '';
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'sift-bombs-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Runs sift and follows its resident memory while it does (Linux's /proc), answering the run and its peak. */
async function runWatched(args: string[]): Promise<SiftRun & { peakMb: number }> {
  const run = runSift(args, { SIFT_DATA_DIR: join(dir, 'data') }, 120_000);
  let peak = 0;
  const watch = setInterval(() => {
    try {
      const status = readFileSync(`/proc/${run.child.pid}/status`, 'utf8');
      peak = Math.max(peak, Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024);
    } catch {
      // Ended between two looks.
    }
  }, 25);
  const done = await run;
  clearInterval(watch);
  return { ...done, peakMb: peak };
}

describe.skipIf(process.platform !== 'linux')('files that unpack or run on without end', () => {
  it('stops a workbook whose shared strings unpack a hundredfold, in words, exit 2, the process small', async () => {
    const path = join(dir, 'strings-bomb.xlsx');
    // 160 MiB of filler in strings of 1 MiB each: the zip is a few hundred KB.
    await writeWorkbook(path, {
      sheets: [{ name: 'Sheet1', rows: ['<row r="1"><c r="A1" t="s"><v>0</v></c></row>'] }],
      manyStrings: { count: 160, length: 1024 * 1024 },
    });
    expect(statSync(path).size).toBeLessThan(2 * 1024 * 1024);
    const run = await runWatched(['rules', 'never-check', path]);
    expect(run.code, run.stderr).toBe(2);
    expect(run.stderr).toContain(
      '"strings-bomb.xlsx" unpacks its xl/sharedStrings.xml to more than 100 times its packed size: it is not read',
    );
    expect(run.peakMb).toBeLessThan(300);
  }, 150_000);

  it('stops a workbook whose shared strings of real text unpack past 64 MiB, in words, exit 2', async () => {
    const path = join(dir, 'strings-large.xlsx');
    // 66 MiB of random letters, which pack as text does: a workbook of about 50 MB.
    await writeWorkbook(path, {
      sheets: [{ name: 'Sheet1', rows: ['<row r="1"><c r="A1" t="s"><v>0</v></c></row>'] }],
      manyStrings: { count: 66, length: 1024 * 1024, text: 'random' },
    });
    const run = await runWatched(['rules', 'never-check', path]);
    expect(run.code, run.stderr).toBe(2);
    expect(run.stderr).toContain(
      '"strings-large.xlsx" unpacks its xl/sharedStrings.xml to more than 64 MiB, more than a list holds',
    );
    // What the 64 MiB it held took, with the heap's room to collect in: measured 2026-11-28 at 313 MB.
    expect(run.peakMb).toBeLessThan(450);
  }, 150_000);

  it('stops a workbook of more than 2,000,000 shared strings', async () => {
    const path = join(dir, 'count-bomb.xlsx');
    await writeWorkbook(path, {
      sheets: [{ name: 'Sheet1', rows: ['<row r="1"><c r="A1" t="s"><v>0</v></c></row>'] }],
      manyStrings: { count: 2_100_000, length: 1, text: 'random' },
    });
    const run = await runWatched(['suppress', 'add', path]);
    expect(run.code, run.stderr).toBe(2);
    expect(run.stderr).toContain('"count-bomb.xlsx" holds more than 2,000,000 shared strings');
  }, 150_000);

  it('stops a text file whose line never ends at 64 KB', async () => {
    const path = join(dir, 'one-line.txt');
    const out = createWriteStream(path);
    const block = 'x'.repeat(1024 * 1024);
    for (let i = 0; i < 200; i += 1) if (!out.write(block)) await once(out, 'drain');
    out.end();
    await once(out, 'close');
    const run = await runWatched(['rules', 'never-check', path]);
    expect(run.code, run.stderr).toBe(2);
    expect(run.stderr).toContain('Line 1 of "one-line.txt" is longer than 64 KB');
    expect(run.peakMb).toBeLessThan(300);
  }, 150_000);

  it('prints a refused line of an imported file without its escape sequences', async () => {
    const path = join(dir, 'escapes.txt');
    // An OSC 52 clipboard write and a screen clear, as a hostile file would carry them.
    writeFileSync(path, 'example.com\n\x1b]52;c;cHduZWQ=\x07not a domain\x1b[2J\n');
    const run = await runWatched(['rules', 'never-check', path]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('"not a domain": not an address or a domain');
    expect(run.stderr).not.toContain('\x1b');
  }, 60_000);
});
