// One pass over a list's own input that keeps its rows' text in the list's file, for the explorer and its
// search index: on the index's thread as soon as the list is read (see search-index.ts), or on the
// app's thread where there is no such thread.
import { readCsvRows } from '../../lists/csv-reader.ts';
import { rowsPerTextChunk, type RowTextStore } from '../store/index.ts';

/** Where a list's rows are read from: its own copy of the input, as its job knows it. */
export type RowTextSource = { path: string; displayName: string; delimiter: string; hasHeader: boolean };

/** Chunks written to a transaction: one flush to disk for sixteen, and the app's writes wait little. */
const chunksPerWrite = 16;

export async function writeRowText(text: RowTextStore, source: RowTextSource): Promise<number> {
  text.start();
  let chunk: string[][] = [];
  let pending: { firstRow: number; rows: string[][] }[] = [];
  let row = 0;
  await readCsvRows(
    source.path,
    source.displayName,
    (cells) => {
      row += 1;
      chunk.push(cells.slice());
      if (chunk.length === rowsPerTextChunk) {
        pending.push({ firstRow: row - chunk.length + 1, rows: chunk });
        chunk = [];
        if (pending.length === chunksPerWrite) {
          text.write(pending);
          pending = [];
        }
      }
    },
    { delimiter: source.delimiter, skipFirstRow: source.hasHeader },
  );
  if (chunk.length > 0) pending.push({ firstRow: row - chunk.length + 1, rows: chunk });
  text.write(pending);
  text.finish(row);
  return row;
}
