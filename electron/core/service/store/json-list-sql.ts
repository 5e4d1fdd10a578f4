// A list of values bound as one parameter (a JSON array), in each engine's SQL: a round's thousands of
// seqs or domains need no statement built per length.
import type { SqlDialect } from '../../storage/sql-connection.ts';

/** SQL, one parameter (a JSON array of strings or numbers): its elements as rows of one column, `value`. */
export const jsonListSql = (dialect: SqlDialect): string =>
  dialect === 'postgres'
    ? 'SELECT json_array_elements_text(CAST(? AS json)) AS value'
    : 'SELECT value FROM json_each(?)';
