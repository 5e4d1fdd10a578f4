// The export writes rows in one of two forms: copied as bytes where the file is of the common shape,
// else quoted afresh from papaparse's cells. A person must get the same files either way: a seeded fuzz
// of awkward lists (formula signs, quotes, line breaks in cells, short and long rows, addresses to
// normalise, suggestions) writes both forms with the same verdicts and compares them byte for byte.
import { mkdir, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ExportKind } from '../../../../../electron/common/contract.ts';
import {
  byteRowWriter,
  textRowWriter,
  type ExportLayout,
} from '../../../../../electron/core/jobs/export/export-rows.ts';
import { jobSettings } from '../../../../../electron/core/jobs/job-settings.ts';
import type { VerdictColumns } from '../../../../../electron/core/jobs/store/list-types.ts';
import type { RowVerdict } from '../../../../../electron/core/jobs/export/row-verdicts.ts';
import { readCsvByteRows } from '../../../../../electron/core/lists/csv-byte-rows.ts';
import { readCsvRows } from '../../../../../electron/core/lists/csv-reader.ts';
import { BufferedFileWriter } from '../../../../../electron/core/lists/csv-writer.ts';
import { seededRandom } from '../../../../support/seeded-random.ts';

const emails = [
  'ann@example.com',
  'Bob@EXAMPLE.com',
  ' carl@example.org ',
  '"Dee" <dee@Example.NET>',
  'mailto:eve@example.com?subject=hi',
  'not an address',
  '=cmd@example.com',
  '',
];
const others = ['plain', 'Zoë', '=1+2', '+49 30 1234', '-5', '@handle', ' =x', '\t=x', '＝1', 'a,b', 'say "hi"'];
const more = ['two\nlines', 'trail ', ' lead', '\uFEFFbom', '""', 'x;y', '﹢1', '7'];

function quoteIfNeeded(cell: string, random: () => number): string {
  return /[",\r\n]/.test(cell) || random() < 0.2 ? `"${cell.replaceAll('"', '""')}"` : cell;
}

function randomList(random: () => number, lineBreak: string): string {
  const pick = <T>(items: readonly T[]) => items[Math.floor(random() * items.length)]!;
  const lines = ['id,email,note,extra'];
  for (let row = 1; row <= 40; row += 1) {
    const width = random() < 0.1 ? 2 : random() < 0.1 ? 5 : 4;
    const cells = [String(row), pick(emails), pick(random() < 0.8 ? others : more), pick(others), pick(more)];
    lines.push(
      cells
        .slice(0, width)
        .map((cell) => quoteIfNeeded(cell, random))
        .join(','),
    );
  }
  return lines.join(lineBreak) + lineBreak;
}

const results = ['valid', 'invalid', 'catch_all', 'unknown', null];

/** The same verdicts for both forms: fresh arrays each time, as the export reads them. */
function verdictsFor(seed: number) {
  const random = seededRandom(seed);
  return (): RowVerdict => {
    if (random() < 0.1) return { address: null, duplicate: false };
    const suggestion = random() < 0.2 ? 'fixed@example.com' : null;
    const cached = random() < 0.2;
    const address: VerdictColumns = [
      results[Math.floor(random() * results.length)]!,
      Math.floor(random() * 16) | (cached ? 16 : 0),
      random() < 0.3 ? 'rejected, "hard"' : null,
      suggestion,
      cached ? (random() < 0.5 ? '2026-10-02' : '2026-11-20') : null,
    ];
    return { address, duplicate: random() < 0.1 };
  };
}

const kinds: ExportKind[] = ['annotated', 'cleaned', 'valid', 'invalid', 'catch_all', 'unknown', 'role', 'disposable'];

async function writeForm(form: 'bytes' | 'text', input: string, folder: string, layout: ExportLayout, seed: number) {
  await mkdir(folder, { recursive: true });
  const writers = new Map<ExportKind, BufferedFileWriter>();
  for (const kind of kinds) writers.set(kind, await BufferedFileWriter.create(join(folder, `${kind}.csv`)));
  const targets = { annotated: writers.get('annotated')!, cleaned: writers.get('cleaned')!, byKind: writers };
  const nextVerdict = verdictsFor(seed);
  const waitFor = (wait: Promise<void> | undefined) => void wait;
  const options = { delimiter: ',', skipFirstRow: true };
  if (form === 'bytes') {
    const write = byteRowWriter(layout, targets);
    expect(await readCsvByteRows(input, (row) => write(row, nextVerdict(), waitFor), options)).toBe(true);
  } else {
    const write = textRowWriter(layout, targets);
    await readCsvRows(input, 'list.csv', (cells) => write(cells, nextVerdict(), waitFor), options);
  }
  for (const writer of writers.values()) await writer.close();
  return Promise.all(kinds.map((kind) => readFile(join(folder, `${kind}.csv`), 'utf8')));
}

describe('the two forms of an exported row', () => {
  it('write the same bytes for the same rows and verdicts', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'sift-forms-'));
    const random = seededRandom(7);
    for (let run = 0; run < 30; run += 1) {
      const input = join(dir, `list-${run}.csv`);
      await writeFile(input, randomList(random, random() < 0.5 ? '\r\n' : '\n'));
      const layout: ExportLayout = {
        delimiter: ',',
        columnIndex: 1,
        width: 4,
        settings: jobSettings({
          neutraliseFormulas: run === 0 || random() < 0.8,
          keep: random() < 0.5 ? ['valid'] : ['valid', 'catch_all', 'unknown'],
          remove: { role: random() < 0.5, disposable: random() < 0.5, typos: random() < 0.5 },
        }),
      };
      const bytes = await writeForm('bytes', input, join(dir, `bytes-${run}`), layout, run);
      const text = await writeForm('text', input, join(dir, `text-${run}`), layout, run);
      expect(bytes).toEqual(text);
      // Not a test of nothing: rows reach the cleaned file, and guarded cells the annotated one.
      if (run === 0) {
        expect(text[1]!.split('\r\n').length).toBeGreaterThan(5);
        expect(text[0]).toContain("'=1+2");
      }
    }
  });
});
