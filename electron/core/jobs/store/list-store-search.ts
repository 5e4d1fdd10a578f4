// The row explorer's search index: the rows' text (as kept for the explorer) in an FTS5 table with the
// trigram tokenizer, so finding a piece of text among a million rows is an index lookup, not a pass over
// them. Built once per list, on a thread of its own (search-index-worker.ts), and dropped with the list.
import { openDatabase, sql, transaction, type Database } from '../../storage/sqlite.ts';
import { counterValue } from './list-store-rows.ts';

/** What separates a row's cells in the index: no one types it, so a search never matches across cells. */
const cellSeparator = '\u001f';
/**
 * Chunks of kept text (512 rows each) per transaction: short ones, as the index is built while the list is
 * checked and the app's thread waits for each to write its verdicts (about 0.06 s each at most).
 */
const chunksPerCommit = 10;

/** Builds (or rebuilds) the index of the list file at `path` from its kept row text; answers the rows indexed. */
export function buildSearchIndex(path: string): number {
  const db = openDatabase(path);
  try {
    // The index is rebuilt from the kept text should a crash lose its last commits; WAL keeps it whole.
    db.exec('PRAGMA synchronous = NORMAL');
    // detail=none: a third of the size of a full index; LIKE still uses it, and that is all a search asks.
    db.exec("CREATE VIRTUAL TABLE IF NOT EXISTS row_search USING fts5(cells, tokenize = 'trigram', detail = none)");
    transaction(db, () => {
      sql(db, 'DELETE FROM row_search').run();
      sql(db, "DELETE FROM counters WHERE name = 'row_search_rows'").run();
    });
    const insert = sql(db, 'INSERT INTO row_search (rowid, cells) VALUES (?, ?)');
    const nextChunks = sql(db, 'SELECT first_row, rows FROM row_text WHERE first_row > ? ORDER BY first_row LIMIT ?');
    // Each batch reads and writes in one transaction that takes the write lock first (IMMEDIATE): the app
    // writes verdicts to the same file meanwhile, and a transaction that read before it wrote would find
    // its snapshot stale and fail, where this one waits its turn.
    for (let after = 0; ;) {
      db.exec('BEGIN IMMEDIATE');
      const chunks = nextChunks.all(after, chunksPerCommit) as { first_row: number; rows: string }[];
      for (const { first_row: firstRow, rows } of chunks)
        (JSON.parse(rows) as string[][]).forEach((cells, i) => insert.run(firstRow + i, cells.join(cellSeparator)));
      if (chunks.length < chunksPerCommit) break;
      db.exec('COMMIT');
      after = chunks.at(-1)!.first_row;
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
