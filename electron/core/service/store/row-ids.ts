// How a batch row is keyed: one integer, its batch's `row_key` in the high 32 bits and its seq (1, 2, …) in
// the low, and its place in result order the same way with its result_seq. SQLite's integers are 64-bit
// but a JS number is exact only to 2^53, so whole keys are made and taken apart in SQL, never in JS. A
// seq bound from JS arrives as a double: it is joined to a key with `|`, whose arithmetic is integer, never
// with `+`, which would give a double and round once keys pass 2^53. Both halves are cast to 64-bit
// integers: PostgreSQL must know a parameter's type, and a 32-bit row key shifted 32 places would wrap.

/** The low 32 bits: a seq or a result_seq (a batch holds far fewer addresses than this). */
export const seqMask = 0xffffffff;

/** SQL: the key of `seq` (an SQL expression) in the batch whose row key is `rowKey` (another). */
export const rowIdSql = (rowKey: string, seq: string): string =>
  `(CAST(${rowKey} AS BIGINT) << 32 | CAST(${seq} AS BIGINT))`;

/** SQL, one parameter (a batch's text id): a CTE `batch (base)`, the key just below the batch's first row. */
export const withBatchBaseSql = 'WITH batch (base) AS (SELECT row_key << 32 FROM batches WHERE id = ?)';

/** SQL, one parameter (a seq from JS): `column` keys a row of that batch after the seq; needs `batch` in FROM. */
export const afterSeqInBatchSql = (column: string): string =>
  `${column} > (base | CAST(? AS BIGINT)) AND ${column} <= base + ${seqMask}`;

/** SQL: whether `column` keys a row of the batch whose row key is `rowKey` (an SQL expression, used twice). */
export const inBatchSql = (rowKey: string, column = 'id'): string =>
  `${column} > ${rowIdSql(rowKey, '0')} AND ${column} <= ${rowIdSql(rowKey, String(seqMask))}`;

/** SQL, one parameter (a batch's text id): its row key. */
export const rowKeyOfSql = '(SELECT row_key FROM batches WHERE id = ?)';
