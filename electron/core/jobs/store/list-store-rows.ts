// What the row explorer reads from a job's list file: the rows' own text (kept in chunks the first time a
// list is explored), the address id of any row, and the facts of the addresses on a page.
import { catchAllLearnedSql, freeMailboxSql } from './score-columns.ts';
import { sql, transaction, type Database } from '../../storage/sqlite.ts';
import type { AddressFacts, RowTextStore } from './list-types.ts';

/** Rows per stored chunk of text. */
export const rowsPerTextChunk = 512;

/** An address's facts as the explorer reads them (AddressFacts). */
const factColumns = `id, first_row, result, role, disposable, reason, suggestion, accepted, cached_at, ${freeMailboxSql} AS free, provider, earlier_valid_at, ${catchAllLearnedSql} AS learned,
  CASE WHEN ${catchAllLearnedSql} IS NOT NULL THEN substr(key, instr(key, '@') + 1) END AS learned_domain`;

/** One of the list's running totals by name; undefined where it was never set. */
export function counterValue(db: Database, name: string): number | undefined {
  return (sql(db, 'SELECT value FROM counters WHERE name = ?').get(name) as { value: number } | undefined)?.value;
}

export function rowTextStore(db: Database): RowTextStore {
  const done = () => counterValue(db, 'row_text_rows') ?? -1;
  return {
    /** How many rows of text are kept; -1 when the text was never (or not completely) kept. */
    rowsKept: done,

    /** Keeps a list's rows: `write` is called with each chunk's first row and its rows, then `finish`. */
    start(): void {
      transaction(db, () => {
        sql(db, 'DELETE FROM row_text').run();
        // The search index is of the text kept before: it is built again from the new text.
        sql(db, "DELETE FROM counters WHERE name IN ('row_text_rows', 'row_search_rows')").run();
      });
    },
    write(chunks): void {
      const insert = sql(db, 'INSERT INTO row_text (first_row, rows) VALUES (?, ?)');
      transaction(db, () => {
        for (const { firstRow, rows } of chunks) insert.run(firstRow, JSON.stringify(rows));
      });
    },
    finish(rows: number): void {
      sql(db, "INSERT OR REPLACE INTO counters (name, value) VALUES ('row_text_rows', ?)").run(rows);
    },

    /** The chunk of rows that holds `row` (1-based). */
    chunkOf(row: number): { firstRow: number; rows: string[][] } | undefined {
      const chunk = sql(
        db,
        'SELECT first_row, rows FROM row_text WHERE first_row <= ? ORDER BY first_row DESC LIMIT 1',
      ).get(row) as { first_row: number; rows: string } | undefined;
      return chunk && { firstRow: chunk.first_row, rows: JSON.parse(chunk.rows) as string[][] };
    },

    /** Every chunk in row order, for a search over the whole list. */
    *chunks(): Generator<{ firstRow: number; rows: string[][] }> {
      for (const chunk of sql(db, 'SELECT first_row, rows FROM row_text ORDER BY first_row').iterate()) {
        const { first_row: firstRow, rows } = chunk as { first_row: number; rows: string };
        yield { firstRow, rows: JSON.parse(rows) as string[][] };
      }
    },

    /** The address ids of the chunk of rows that holds `row`. */
    idsAround(row: number): { firstRow: number; ids: Int32Array } | undefined {
      const chunk = sql(
        db,
        'SELECT first_row, address_ids FROM row_chunks WHERE first_row <= ? ORDER BY first_row DESC LIMIT 1',
      ).get(row) as { first_row: number; address_ids: Uint8Array } | undefined;
      return chunk && { firstRow: chunk.first_row, ids: new Int32Array(chunk.address_ids.slice().buffer) };
    },

    /** The facts of some addresses, by id, in one query. */
    facts(ids: readonly number[]): Map<number, AddressFacts> {
      const rows = sql(
        db,
        `SELECT ${factColumns} FROM address_verdicts WHERE id IN (SELECT value FROM json_each(?))`,
      ).all(JSON.stringify(ids)) as AddressFacts[];
      return new Map(rows.map((row) => [row.id, row]));
    },

    /**
     * Accepts (or takes back) the typo suggestion of one address, or of every address at a domain that has
     * one; answers how many changed.
     */
    acceptSuggestions(target: { addressId: number } | { domain: string }, accept: boolean): number {
      const where = 'addressId' in target ? 'id = ?' : "substr(key, instr(key, '@') + 1) = ?";
      return Number(
        sql(db, `UPDATE addresses SET accepted = ? WHERE suggestion IS NOT NULL AND accepted <> ? AND ${where}`).run(
          accept ? 1 : 0,
          accept ? 1 : 0,
          'addressId' in target ? target.addressId : target.domain.toLowerCase(),
        ).changes,
      );
    },

    /**
     * The verdicts of the addresses given by their keys (the list's normal form), those the list holds: one
     * pass over the list, for a person's look at what happened to it (the outcomes of its addresses).
     */
    resultsOf(keys: readonly string[]): Map<string, string | null> {
      const rows = sql(
        db,
        'SELECT key, result FROM address_verdicts WHERE key IN (SELECT value FROM json_each(?))',
      ).all(JSON.stringify(keys)) as { key: string; result: string | null }[];
      return new Map(rows.map((row) => [row.key, row.result]));
    },

    /** Every address's facts in id order, for working out a filter once. */
    *allFacts(): Generator<AddressFacts> {
      const rows = sql(db, `SELECT ${factColumns} FROM address_verdicts ORDER BY id`);
      for (const row of rows.iterate()) yield row as AddressFacts;
    },
  };
}
