// One asynchronous way to reach a SQL database, so a store's SQL and logic are written once for every
// engine that runs them: SQLite (node:sqlite, the default) here, PostgreSQL for a team's service.
// Placeholders are `?` in every engine. A transaction hands its work a connection of its own: inside
// it, use that one, never the outer one (on SQLite the outer one waits for the transaction to end).
import { AsyncLocalStorage } from 'node:async_hooks';
import { sql, type Database } from './sqlite.ts';
import { sqliteDialect, type SqlDialect } from './sql-dialect.ts';

export type SqlValue = string | number | bigint | null | Uint8Array;

export type SqlConnection = {
  readonly dialect: SqlDialect;
  get<Row>(text: string, params?: readonly SqlValue[]): Promise<Row | undefined>;
  all<Row>(text: string, params?: readonly SqlValue[]): Promise<Row[]>;
  /** Rows as arrays of their columns: a million named objects cost more than the query. */
  arrays<Row extends unknown[]>(text: string, params?: readonly SqlValue[]): Promise<Row[]>;
  run(text: string, params?: readonly SqlValue[]): Promise<{ changes: number }>;
  /** Statements without parameters, several at once (schema changes). */
  exec(text: string): Promise<void>;
  /**
   * Runs `work` in one transaction: all of it is committed, or none of it. `work` may run again when
   * the engine asks for a retry (PostgreSQL's serialization failures), so it changes nothing outside the
   * database until it has returned. Inside a transaction, `transaction` joins it.
   *
   * `oneAtATime` names what the work contends for (say, one batch): transactions naming the same thing
   * wait for one another before they begin, in every process, rather than collide and run again. SQLite
   * runs one transaction at a time anyway.
   */
  transaction<T>(work: (connection: SqlConnection) => Promise<T>, options?: { oneAtATime?: string }): Promise<T>;
  close(): Promise<void>;
};

/**
 * SQLite through one node:sqlite connection. Its calls are synchronous, so each is done at once; but a
 * transaction's work awaits between statements, so while one is open every other caller waits its turn
 * (otherwise its statements would land inside a transaction that is not theirs).
 */
export function sqliteConnection(db: Database): SqlConnection {
  let turn: Promise<void> = Promise.resolve();
  let open = false;
  /** Set in a transaction's own calls: one that reaches for the outer connection would wait for itself. */
  const insideWork = new AsyncLocalStorage<true>();

  const statement = (text: string) => sql(db, text);
  /** The statements themselves, run at once: what a transaction's work is given. */
  const inside: SqlConnection = {
    dialect: sqliteDialect,
    get: async <Row>(text: string, params: readonly SqlValue[] = []) =>
      statement(text).get(...(params as SqlValue[])) as Row | undefined,
    all: async <Row>(text: string, params: readonly SqlValue[] = []) =>
      statement(text).all(...(params as SqlValue[])) as Row[],
    async arrays<Row extends unknown[]>(text: string, params: readonly SqlValue[] = []) {
      const prepared = statement(text);
      prepared.setReturnArrays(true);
      try {
        return prepared.all(...(params as SqlValue[])) as unknown as Row[];
      } finally {
        prepared.setReturnArrays(false);
      }
    },
    async run(text, params = []) {
      return { changes: Number(statement(text).run(...(params as SqlValue[])).changes) };
    },
    async exec(text) {
      db.exec(text);
    },
    transaction: (work) => work(inside),
    async close() {
      db.close();
    },
  };

  const refuseInsideWork = () => {
    if (insideWork.getStore()) throw new Error('A transaction used the outer connection; use the one it was given.');
  };
  /**
   * `use` at once when no transaction is open, else when it has ended. The check of `open` and what
   * follows it run with no await between them, so two callers cannot both find the connection free.
   */
  async function inTurn<T>(use: () => Promise<T>): Promise<T> {
    if (open) refuseInsideWork();
    while (open) await turn;
    return use();
  }

  return {
    dialect: sqliteDialect,
    get: (text, params) => inTurn(() => inside.get(text, params)),
    all: (text, params) => inTurn(() => inside.all(text, params)),
    arrays: (text, params) => inTurn(() => inside.arrays(text, params)),
    run: (text, params) => inTurn(() => inside.run(text, params)),
    exec: (text) => inTurn(() => inside.exec(text)),
    async transaction<T>(work: (connection: SqlConnection) => Promise<T>): Promise<T> {
      refuseInsideWork();
      while (open) await turn;
      open = true;
      let release = () => {};
      turn = new Promise((resolve) => (release = resolve));
      try {
        db.exec('BEGIN IMMEDIATE');
        try {
          const result = await insideWork.run(true, () => work(inside));
          db.exec('COMMIT');
          return result;
        } catch (error) {
          if (db.isTransaction) db.exec('ROLLBACK');
          throw error;
        }
      } finally {
        open = false;
        release();
      }
    },
    close: () => inTurn(() => inside.close()),
  };
}
