import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { previewList } from '../../../../electron/core/lists/csv-preview.ts';

const dir = await mkdtemp(join(tmpdir(), 'sift-preview-'));
let counter = 0;
async function file(content: string | Uint8Array): Promise<string> {
  const path = join(dir, `list-${++counter}.csv`);
  await writeFile(path, content);
  return path;
}

describe('previewList', () => {
  it('reads the header and first rows, with quoted delimiters and newlines', async () => {
    const path = await file('email,name,note\na@example.com,"Ann, Jr","line one\nline two"\nb@example.com,Bob,\n');
    const preview = await previewList(path, 20);
    expect(preview.headers).toEqual(['email', 'name', 'note']);
    expect(preview.rows).toEqual([
      ['a@example.com', 'Ann, Jr', 'line one\nline two'],
      ['b@example.com', 'Bob', ''],
    ]);
    expect(preview).toMatchObject({ delimiter: ',', hasMoreRows: false, fileName: expect.stringMatching(/\.csv$/) });
  });

  it('stops after the asked rows and says more follow', async () => {
    const lines = ['email', ...Array.from({ length: 500 }, (_, i) => `user${i}@example.com`)];
    const preview = await previewList(await file(lines.join('\n')), 5);
    expect(preview.rows).toEqual(lines.slice(1, 6).map((line) => [line]));
    expect(preview.hasMoreRows).toBe(true);
  });

  it('detects semicolons and strips a UTF-8 BOM', async () => {
    const preview = await previewList(await file('\uFEFFEmail;Nom\nzoé@example.fr;Zoé\n'), 20);
    expect(preview.headers).toEqual(['Email', 'Nom']);
    expect(preview.rows).toEqual([['zoé@example.fr', 'Zoé']]);
    expect(preview.delimiter).toBe(';');
  });

  it('reads UTF-16 LE with tabs (Excel "Unicode Text")', async () => {
    const text = 'email\tname\r\nmüller@example.de\tMüller\r\n';
    const bytes = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]);
    const preview = await previewList(await file(bytes), 20);
    expect(preview.delimiter).toBe('\t');
    expect(preview.rows).toEqual([['müller@example.de', 'Müller']]);
  });

  it('falls back to Windows-1252 for accented names that are not UTF-8', async () => {
    const bytes = Buffer.from('email,name\nrene@example.fr,Ren\xe9\n', 'latin1');
    const preview = await previewList(await file(bytes), 20);
    expect(preview.rows).toEqual([['rene@example.fr', 'René']]);
  });

  it('keeps a character whole when it is split across read chunks', async () => {
    // The reader takes 64 KiB chunks: put a two-byte é right across the first boundary.
    const filler = 'x'.repeat(64 * 1024 - 'email\n'.length - 1);
    const preview = await previewList(await file(`email\n${filler}é@example.com\n`), 20);
    expect(preview.rows[0]![0]!.endsWith('é@example.com')).toBe(true);
  });

  it('says clearly when the file is empty, binary or missing', async () => {
    await expect(previewList(await file(''), 20)).rejects.toMatchObject({
      code: 'unreadable_file',
      message: expect.stringContaining('empty'),
    });
    await expect(
      previewList(await file(new Uint8Array([0x50, 0x4b, 0x03, 0x04, 0, 0, 0x14, 0])), 20),
    ).rejects.toMatchObject({
      code: 'unreadable_file',
      message: expect.stringContaining('binary'),
    });
    await expect(previewList(join(dir, 'nope.csv'), 20)).rejects.toMatchObject({ code: 'unreadable_file' });
    await expect(previewList(await file('\n\n  \n'), 20)).rejects.toMatchObject({
      message: expect.stringContaining('no rows'),
    });
  });
});
