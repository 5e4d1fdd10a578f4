// What differs between the SQL engines Sift's stores run on, in one object each, owned by the storage
// layer: a store writes its SQL once and asks its connection's dialect for the few pieces that differ,
// never a ternary of its own.

export type SqlDialect = {
  readonly name: 'sqlite' | 'postgres';
  /** One process has the database (SQLite's file): at start, every other process is gone. */
  readonly oneProcess: boolean;
  /** A statement per row is cheapest (an in-process engine); else rows go many to a statement (a round trip each). */
  readonly statementPerRow: boolean;
  /** SQL, one parameter (a JSON array of strings or numbers): its elements as rows of one column, `value`. */
  readonly jsonList: string;
  /** SQL: the database's own clock, in milliseconds since the epoch (one clock for every process). */
  readonly nowMs: string;
  /** After a SELECT whose rows the transaction goes on to change: locks them (SQLite's one writer needs none). */
  readonly forUpdate: string;
  /** After a claiming SELECT: rows another transaction is claiming are skipped, not waited for. */
  readonly skipLocked: string;
  /** SQL: the next value of `sequence`, or `emulated` on an engine without sequences. */
  nextInSequence(sequence: string, emulated: string): string;
};

export const sqliteDialect: SqlDialect = {
  name: 'sqlite',
  oneProcess: true,
  statementPerRow: true,
  jsonList: 'SELECT value FROM json_each(?)',
  nowMs: "((julianday('now') - 2440587.5) * 86400000.0)",
  forUpdate: '',
  skipLocked: '',
  nextInSequence: (_sequence, emulated) => emulated,
};

export const postgresDialect: SqlDialect = {
  name: 'postgres',
  oneProcess: false,
  statementPerRow: false,
  jsonList: 'SELECT json_array_elements_text(CAST(? AS json)) AS value',
  nowMs: 'CAST(EXTRACT(EPOCH FROM clock_timestamp()) * 1000 AS DOUBLE PRECISION)',
  forUpdate: 'FOR UPDATE',
  skipLocked: 'FOR UPDATE SKIP LOCKED',
  nextInSequence: (sequence) => `nextval('${sequence}')`,
};
