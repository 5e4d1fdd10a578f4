// The byte scanner must read every file it accepts exactly as csv-reader.ts (papaparse) does, or
// verdicts land on the wrong rows: a seeded fuzz holds it to the reader's rows, and to its say on which
// files it leaves to the reader.
import { mkdtemp, open, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cellText, readCsvByteRows } from '../../../../electron/core/lists/csv-byte-rows.ts';
import { readCsvRows } from '../../../../electron/core/lists/csv-reader.ts';
import { seededRandom } from '../../../support/seeded-random.ts';

const pieces = ['a', 'b', 'Zoë', '7', ' ', '"', '""', '=', '\t', '\uFEFF', '＋', '—', 'x@y.example', ';'];

/** A list of plain, quoted and odd cells; now and then a stray line break or a quote out of place. */
function randomList(random: () => number, delimiter: string): string {
  const lineBreak = ['\n', '\r\n', '\r'][Math.floor(random() * 3)]!;
  const pick = <T>(items: readonly T[]) => items[Math.floor(random() * items.length)]!;
  const rows: string[] = [];
  const rowCount = 1 + Math.floor(random() * 12);
  for (let r = 0; r < rowCount; r += 1) {
    const cells: string[] = [];
    const width = random() < 0.1 ? 1 : 1 + Math.floor(random() * 5);
    for (let c = 0; c < width; c += 1) {
      let text = '';
      const length = Math.floor(random() * 6);
      for (let k = 0; k < length; k += 1) text += pick(random() < 0.05 ? [delimiter, '\n', '\r'] : pieces);
      const quoted = random() < 0.3 || /["\r\n]/.test(text) || text.includes(delimiter);
      cells.push(quoted && random() > 0.03 ? `"${text.replaceAll('"', '""')}"${random() < 0.03 ? ' ' : ''}` : text);
    }
    rows.push(cells.join(delimiter));
  }
  const blank = random() < 0.2 ? lineBreak : '';
  return (random() < 0.1 ? '\uFEFF' : '') + rows.join(lineBreak) + blank + (random() < 0.5 ? lineBreak : '');
}

async function bothReads(path: string, delimiter: string, skipFirstRow: boolean) {
  const expected: string[][] = [];
  const reference = await readCsvRows(path, 'list.csv', (row) => void expected.push(row), {
    delimiter,
    skipFirstRow,
  }).catch(() => null);
  const scanned: string[][] = [];
  const accepted = await readCsvByteRows(
    path,
    (row) => void scanned.push(Array.from({ length: row.count }, (_, i) => cellText(row, i))),
    { delimiter, skipFirstRow },
  );
  return { expected, scanned, accepted, referenceFailed: reference === null };
}

describe('reading rows as bytes', () => {
  it('agrees with the reader on every file it accepts, and accepts most of them', async () => {
    const folder = await mkdtemp(join(tmpdir(), 'sift-bytes-'));
    const random = seededRandom(20261123);
    let accepted = 0;
    const runs = 600;
    for (let run = 0; run < runs; run += 1) {
      const delimiter = random() < 0.8 ? ',' : random() < 0.5 ? ';' : '\t';
      const path = join(folder, `list-${run}.csv`);
      const text = randomList(random, delimiter);
      await writeFile(path, text);
      const skipFirstRow = random() < 0.5;
      const result = await bothReads(path, delimiter, skipFirstRow);
      if (!result.accepted) continue;
      accepted += 1;
      expect(result.referenceFailed, JSON.stringify(text)).toBe(false);
      expect(result.scanned, JSON.stringify(text)).toEqual(result.expected);
    }
    expect(accepted).toBeGreaterThan(runs / 2);
  }, 60_000);

  it('reads rows that cross its read boundaries, and hashes every byte once', async () => {
    const folder = await mkdtemp(join(tmpdir(), 'sift-bytes-'));
    const path = join(folder, 'long.csv');
    const row = (n: number) => `${n},"Zoë ${'x'.repeat(n % 300)}, Inc.",=${n}@example.com\r\n`;
    const text = Array.from({ length: 30_000 }, (_, n) => row(n)).join('');
    await writeFile(path, text);
    let seen = 0;
    const { expected, scanned, accepted } = await bothReads(path, ',', false);
    await readCsvByteRows(path, () => {}, { delimiter: ',', onBytes: (chunk) => (seen += chunk.length) });
    expect(accepted).toBe(true);
    expect(scanned.length).toBe(30_000);
    expect(scanned).toEqual(expected);
    expect(seen).toBe(Buffer.byteLength(text));
  });

  it('reports a read that fails while a row waits as its error, never as unhandled', async () => {
    const path = join(await mkdtemp(join(tmpdir(), 'sift-bytes-')), 'failing.csv');
    await writeFile(path, 'a,b\n'.repeat(600_000));
    const probe = await open(path, 'r');
    const fileHandle = Object.getPrototypeOf(probe) as { read: (...args: unknown[]) => Promise<unknown> };
    await probe.close();
    const read = fileHandle.read;
    let reads = 0;
    fileHandle.read = function (this: unknown, ...args: unknown[]) {
      reads += 1;
      // The second piece is the one read ahead while the first rows are handed on.
      return reads === 3 ? Promise.reject(Object.assign(new Error('EIO'), { code: 'EIO' })) : read.apply(this, args);
    };
    try {
      const slowRow = () => new Promise<void>((resolve) => setTimeout(resolve, 20));
      let rows = 0;
      const reading = readCsvByteRows(path, () => (++rows === 1 ? slowRow() : undefined), { delimiter: ',' });
      await expect(reading).rejects.toMatchObject({ code: 'EIO' });
    } finally {
      fileHandle.read = read;
    }
  });

  it.each([
    ['another encoding', Buffer.from('email\r\nzo\xeb@example.com\r\n', 'latin1')],
    [
      'bytes that are not UTF-8 past the sniffed head',
      Buffer.concat([Buffer.from('a\n'.repeat(40_000)), Buffer.from([0xc3, 0x0a])]),
    ],
    ['a line break unlike the first', 'email\r\na@example.com\nb@example.com\r\n'],
    ['text after a closing quote', 'email,name\r\na@example.com,"Ann" Lee\r\n'],
    ['a quote that never closes', 'email,name\r\na@example.com,"Ann\r\n'],
    ['a row longer than the longest cell', `email,note\r\na@example.com,${'x'.repeat(4.5 * 1024 * 1024)}\r\n`],
  ])('leaves %s to the reader', async (_, content) => {
    const path = join(await mkdtemp(join(tmpdir(), 'sift-bytes-')), 'odd.csv');
    await writeFile(path, content);
    expect(await readCsvByteRows(path, () => {}, { delimiter: ',' })).toBe(false);
  });
});
