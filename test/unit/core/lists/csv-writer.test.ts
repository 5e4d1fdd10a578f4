// CSV lines are quoted as papaparse quotes them (so papaparse reads back exactly the cells written), and
// the buffered writer puts every byte on disk in order, whatever the sizes of the pieces.
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Papa from 'papaparse';
import { describe, expect, it } from 'vitest';
import { BufferedFileWriter, csvLineWriter } from '../../../../electron/core/lists/csv-writer.ts';
import { neutraliseFormula } from '../../../../electron/core/lists/formula-guard.ts';

describe('csvLineWriter', () => {
  const cells = ['plain', 'a,b', 'say "hi"', 'two\nlines', ' lead', 'trail ', '', '\uFEFFbom', 'ünïcødé', 'x;y'];

  it('quotes what papaparse quotes, for each delimiter', () => {
    for (const delimiter of [',', ';', '\t', '|']) {
      const line = csvLineWriter(delimiter)(cells);
      expect(line).toBe(Papa.unparse([cells], { delimiter, newline: '\r\n' }));
      expect(Papa.parse<string[]>(line, { delimiter }).data[0]).toEqual(cells);
    }
  });

  it('applies a transform to each cell before quoting', () => {
    const line = csvLineWriter(',')(['=1+2', 'ok', ' +x,y'], neutraliseFormula);
    expect(Papa.parse<string[]>(line).data[0]).toEqual(["'=1+2", 'ok', "' +x,y"]);
  });
});

describe('BufferedFileWriter', () => {
  it('writes small and huge pieces, multi-byte text included, in order', async () => {
    const path = join(await mkdtemp(join(tmpdir(), 'sift-writer-')), 'out.csv');
    const writer = await BufferedFileWriter.create(path);
    const pieces: string[] = [];
    for (let i = 0; i < 30_000; i += 1) pieces.push(`${i},ünïcødé ${'x'.repeat(i % 97)}\r\n`);
    pieces.splice(15_000, 0, `${'€'.repeat(700_000)}\r\n`); // larger than the writer's buffer
    for (const piece of pieces) await writer.write(piece);
    await writer.close();
    expect(await readFile(path, 'utf8')).toBe(pieces.join(''));
  });
});
