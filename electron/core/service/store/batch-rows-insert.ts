// How an upload's new rows are written to batch_rows (batches-store.ts stages them): many rows a
// statement, and the values gathered straight into each statement's parameters, so a million staged rows
// make no array each (a statement per row costs more than the rest of staging).
import type { SqlConnection } from '../../storage/sql-connection.ts';
import { rowIdSql } from './row-ids.ts';

const rowColumns = '(id, email, host, result, reason, role, disposable, result_key)';
// Row key and seq, the verdict's columns, row key and result_seq (NULL for no verdict yet).
const rowValues = `(${rowIdSql('?', '?')}, ?, ?, ?, ?, ?, ?, ${rowIdSql('?', '?')})`;
const valuesPerRow = rowValues.split('?').length - 1;
const rowsPerInsert = 64;

type RowValue = string | number | null;

/** Rows to insert, in order; `insert` may run again (a transaction tried again writes the same rows). */
export function rowBatches() {
  const full: RowValue[][] = [];
  let filling: RowValue[] = [];
  return {
    /** Row key and seq, email, host, result, reason, role, disposable, row key and result_seq (or null). */
    add(...row: RowValue[]) {
      filling.push(...row);
      if (filling.length === rowsPerInsert * valuesPerRow) {
        full.push(filling);
        filling = [];
      }
    },
    async insert(db: SqlConnection): Promise<void> {
      const many = `INSERT INTO batch_rows ${rowColumns} VALUES ${Array(rowsPerInsert).fill(rowValues).join(', ')}`;
      const one = `INSERT INTO batch_rows ${rowColumns} VALUES ${rowValues}`;
      for (const values of full) await db.run(many, values);
      for (let i = 0; i < filling.length; i += valuesPerRow) await db.run(one, filling.slice(i, i + valuesPerRow));
    },
  };
}
