// A workbook's shared strings (xl/sharedStrings.xml), read into plain text, one string per `<si>`.
// exceljs' own reader runs every byte through a general XML parser that builds each long string by
// repeated concatenation: a 64 MiB part took about 290 MB of memory to read, past what a bounded import
// may use. Here each `<si>` is gathered from the chunks it spans and joined once. A list needs a cell's
// text, not its fonts: rich-text runs are joined, and phonetic guides (`<rPh>`, ECMA-376 Part 1 §18.4.6)
// are left out, where exceljs kept the guide in place of the text.
import type { Readable } from 'node:stream';

/** An element's opening tag by its local name, with or without a namespace prefix (`<x:si>`). */
const open = (name: string) => `<(?:[A-Za-z_][\\w.-]*:)?${name}(?=[\\s/>])`;
const close = (name: string) => `</(?:[A-Za-z_][\\w.-]*:)?${name}\\s*>`;

// An item ends at its closing tag; an empty one may be written `<si/>`.
const itemEnd = new RegExp(`${close('si')}|${open('si')}\\s*/>`, 'g');
const itemStart = new RegExp(open('si'));
const phonetic = new RegExp(`${open('rPh')}[\\s\\S]*?(?:${close('rPh')}|/>)`, 'g');
// A `<t>` with its text, or an empty `<t/>`.
const textRun = new RegExp(`${open('t')}[^>]*?(?:/>|>([\\s\\S]*?)${close('t')})`, 'g');

const named: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };

/** XML's character data as text: its five named entities, numeric references and CDATA sections. */
function xmlText(raw: string): string {
  if (!raw.includes('&') && !raw.includes('<')) return raw;
  return raw.replace(/<!\[CDATA\[([\s\S]*?)\]\]>|&(#x[0-9a-fA-F]+|#[0-9]+|[a-z]+);/g, (whole, cdata, ref) => {
    if (cdata !== undefined) return cdata as string;
    const name = ref as string;
    if (name.startsWith('#')) {
      const code = name[1] === 'x' ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10);
      return code <= 0x10ffff ? String.fromCodePoint(code) : whole;
    }
    return named[name] ?? whole;
  });
}

/** The text of one `<si>` item: its runs' `<t>`s in order, phonetic guides left out. */
function sharedStringText(item: string): string {
  const body = item.replace(phonetic, '');
  let text = '';
  for (const match of body.matchAll(textRun)) text += xmlText(match[1] ?? '');
  return text;
}

/** Every shared string of the part, in order (a cell's `<v>` is an index into them). */
export async function readSharedStrings(part: Readable): Promise<string[]> {
  const strings: string[] = [];
  // The bytes of an `<si>` that began in an earlier chunk, kept as bytes (outside the JavaScript heap)
  // and decoded once the item ends: a long string is made once, not once per chunk, and no half-made
  // copies wait in the heap for a full collection (which doubled the memory a large part took).
  let pieces: Buffer[] = [];
  let tail: Buffer = Buffer.alloc(0);
  for await (const data of part) {
    // The last bytes of the chunk before, in case a closing tag straddles the two.
    const chunk = tail.length > 0 ? Buffer.concat([tail, data as Buffer]) : (data as Buffer);
    // Tags are ASCII and UTF-8's other bytes are all above 0x7f: as Latin-1, a character is a byte, so
    // what the expression finds is where the bytes are.
    const text = chunk.toString('latin1');
    itemEnd.lastIndex = 0;
    let start = 0;
    for (let match = itemEnd.exec(text); match; match = itemEnd.exec(text)) {
      const end = match.index + match[0].length;
      pieces.push(chunk.subarray(start, end));
      const item = (pieces.length === 1 ? (pieces[0] as Buffer) : Buffer.concat(pieces)).toString('utf8');
      pieces = [];
      // What comes before the item's own tag: the part's prolog, or the space between two items.
      strings.push(sharedStringText(item.slice(Math.max(0, item.search(itemStart)))));
      start = end;
    }
    const keep = Math.max(start, chunk.length - 16);
    if (keep > start) pieces.push(chunk.subarray(start, keep));
    tail = chunk.subarray(keep);
  }
  return strings;
}
