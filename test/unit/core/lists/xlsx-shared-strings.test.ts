// A workbook's shared strings as a list reads them: each `<si>`'s text, whatever chunks its bytes came
// in, with rich-text runs joined and Japanese phonetic guides left out.
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { readSharedStrings } from '../../../../electron/core/lists/xlsx-shared-strings.ts';

/** The part's bytes cut into chunks of `size` bytes, as an unzipped stream hands them over. */
const chunked = (xml: string, size: number) => {
  const bytes = Buffer.from(xml, 'utf8');
  const chunks: Buffer[] = [];
  for (let at = 0; at < bytes.length; at += size) chunks.push(bytes.subarray(at, at + size));
  return Readable.from(chunks);
};

const part = (items: string) =>
  `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" count="9">${items}</sst>`;

const items = [
  '<si><t>ann@example.com</t></si>',
  // Rich text: a run in bold, as Excel writes a partly formatted cell.
  '<si><r><t>bob@</t></r><r><rPr><b/><sz val="11"/></rPr><t>example.com</t></r></si>',
  // A phonetic guide (furigana) after the text: the cell shows the text.
  '<si><t>山田</t><rPh sb="0" eb="2"><t>ヤマダ</t></rPh><phoneticPr fontId="1"/></si>',
  '<si><t xml:space="preserve"> José &amp; Zoë &lt;jz@example.org&gt; &#233;&#x2764; </t></si>',
  '<si/>',
  '<si><t/></si>',
  '<si><t><![CDATA[a<b>&c]]></t></si>',
  // A tab element is not a text run.
  '<si><r><tab/><t>x</t></r></si>',
  '<x:si><x:t>prefixed</x:t></x:si>',
].join('\n');

const expected = [
  'ann@example.com',
  'bob@example.com',
  '山田',
  ' José & Zoë <jz@example.org> é❤ ',
  '',
  '',
  'a<b>&c',
  'x',
  'prefixed',
];

describe('shared strings', () => {
  it('reads each item as the cell shows it', async () => {
    expect(await readSharedStrings(chunked(part(items), 64 * 1024))).toEqual(expected);
  });

  it('reads the same whatever the chunks, a character or a closing tag cut between two', async () => {
    for (const size of [1, 2, 3, 5, 7, 13, 17, 31]) {
      expect(await readSharedStrings(chunked(part(items), size)), `chunks of ${size}`).toEqual(expected);
    }
  });

  it('keeps a long string whole across many chunks', async () => {
    const long = 'é'.repeat(300_000);
    const strings = await readSharedStrings(chunked(part(`<si><t>${long}</t></si><si><t>next</t></si>`), 16 * 1024));
    expect(strings).toEqual([long, 'next']);
  });

  it('reads a part with no items as none', async () => {
    expect(await readSharedStrings(chunked(part(''), 10))).toEqual([]);
  });
});
