// The list issue 29's goal is measured on: one whose every address the verdict cache knows. A list cleaned
// once still has addresses the cache never reuses (`unknown` verdicts), so this takes the rows of a cleaned
// list's annotated file whose verdict the cache keeps, with the list's own columns only, as a new file.
import { createReadStream, createWriteStream } from 'node:fs';
import { once } from 'node:events';
import Papa from 'papaparse';

/** Verdicts the cache never hands out again (cache-policy.ts: `unknown` says nothing about an address). */
const neverReused = new Set(['unknown']);

/** Writes the rows of `annotatedPath` the cache knows to `outPath`, the first `width` columns; answers their count. */
export async function writeCachedRows(annotatedPath: string, outPath: string, width: number): Promise<number> {
  const out = createWriteStream(outPath);
  let resultColumn = -1;
  let rows = 0;
  let text = '';
  const write = async () => {
    if (!out.write(text)) await once(out, 'drain');
    text = '';
  };
  await new Promise<void>((resolve, reject) => {
    Papa.parse(createReadStream(annotatedPath, { encoding: 'utf8' }) as unknown as File, {
      step: ({ data }: { data: string[] }, parser) => {
        if (resultColumn === -1) {
          resultColumn = data.indexOf('sift_result');
          if (resultColumn === -1) throw new Error(`${annotatedPath} has no sift_result column`);
          data[0] = data[0]!.replace(/^\uFEFF/, ''); // the annotated file's byte-order mark is not a header
        } else if (neverReused.has(data[resultColumn]!)) return;
        else rows += 1;
        text += `${Papa.unparse([data.slice(0, width)])}\r\n`;
        if (text.length > 1 << 20) {
          parser.pause();
          void write().then(() => parser.resume());
        }
      },
      complete: () => resolve(),
      error: reject,
    });
  });
  await write();
  out.end();
  await once(out, 'finish');
  return rows;
}
