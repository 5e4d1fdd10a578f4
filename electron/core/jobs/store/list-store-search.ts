// The row explorer's search index: the rows' text (as kept for the explorer) in an FTS5 table with the
// trigram tokenizer, so finding a piece of text among a million rows is an index lookup, not a pass over
// them. Built once per list, on a thread of its own (search-index-worker.ts), and dropped with the list.
import { openDatabase, sql, transaction, type Database } from '../../storage/sqlite.ts';
import { counterValue } from './list-store-rows.ts';

/** What separates a row's cells in the index: no one types it, so a search never matches across cells. */
const cellSeparator = '\u001f';
/** Chunks of kept text (512 rows each) per transaction: a big list is indexed without one huge transaction. */
const chunksPerCommit = 100;

/** Builds (or rebuilds) the index of the list file at `path` from its kept row text; answers the rows indexed. */
export function buildSearchIndex(path: string): number {
  const db = openDatabase(path);
  try {
    // detail=none: a third of the size of a full index; LIKE still uses it, and that is all a search asks.
    db.exec("CREATE VIRTUAL TABLE IF NOT EXISTS row_search USING fts5(cells, tokenize = 'trigram', detail = none)");
    transaction(db, () => {
      sql(db, 'DELETE FROM row_search').run();
      sql(db, "DELETE FROM counters WHERE name = 'row_search_rows'").run();
    });
    const insert = sql(db, 'INSERT INTO row_search (rowid, cells) VALUES (?, ?)');
    let chunksDone = 0;
    db.exec('BEGIN');
    for (const chunk of sql(db, 'SELECT first_row, rows FROM row_text ORDER BY first_row').iterate()) {
      const { first_row: firstRow, rows } = chunk as { first_row: number; rows: string };
      (JSON.parse(rows) as string[][]).forEach((cells, i) => insert.run(firstRow + i, cells.join(cellSeparator)));
      chunksDone += 1;
      if (chunksDone % chunksPerCommit === 0) db.exec('COMMIT; BEGIN');
    }
    const rowsKept = counterValue(db, 'row_text_rows') ?? 0;
    sql(db, "INSERT OR REPLACE INTO counters (name, value) VALUES ('row_search_rows', ?)").run(rowsKept);
    db.exec('COMMIT');
    return rowsKept;
  } catch (error) {
    if (db.isTransaction) db.exec('ROLLBACK');
    throw error;
  } finally {
    db.close();
  }
}

/** The search index of an open list file: whether it covers the list, and the rows holding a piece of text. */
export function rowSearch(db: Database) {
  return {
    /** How many rows the index covers; -1 when it was never (or not completely) built. */
    rowsIndexed: (): number => counterValue(db, 'row_search_rows') ?? -1,
    /**
     * The rows whose text holds `piece` (3 characters or more, none of LIKE's own `%` and `_`), ignoring
     * ASCII case, in row order.
     */
    rowsHolding(piece: string): Int32Array {
      const rows = sql(db, 'SELECT rowid FROM row_search WHERE cells LIKE ? ORDER BY rowid').all(`%${piece}%`) as {
        rowid: number;
      }[];
      return Int32Array.from(rows, (row) => row.rowid);
    },
  };
}
