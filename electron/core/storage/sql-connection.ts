// One asynchronous way to reach a SQL database, so a store's SQL and logic are written once for every
// engine that runs them: SQLite (node:sqlite, the default) here, PostgreSQL for a team's service.
// Placeholders are `?` in every engine. A transaction hands its work a connection of its own: inside
// it, use that one, never the outer one (on SQLite the outer one waits for the transaction to end).
import { AsyncLocalStorage } from 'node:async_hooks';
import { sql, type Database } from './sqlite.ts';

export type SqlValue = string | number | bigint | null | Uint8Array;
export type SqlDialect = 'sqlite' | 'postgres';

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
   */
  transaction<T>(work: (connection: SqlConnection) => Promise<T>): Promise<T>;
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

  const direct = (inTransaction: boolean): SqlConnection => {
    const statement = (text: string) => sql(db, text);
    const connection: SqlConnection = {
      dialect: 'sqlite',
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
      transaction: (work) => (inTransaction ? work(connection) : outer.transaction(work)),
      async close() {
        db.close();
      },
    };
    return connection;
  };
  const inside = direct(true);
  const now = direct(false);

  /** Set in a transaction's own calls: one that reaches for the outer connection would wait for itself. */
  const insideWork = new AsyncLocalStorage<true>();

  /** Waits while another caller's transaction is open; then `use` runs at once. */
  async function whenFree<T>(use: () => Promise<T>): Promise<T> {
    if (insideWork.getStore()) {
      throw new Error('A transaction used the outer connection; use the one it was given.');
    }
    while (open) await turn;
    return use();
  }

  const outer: SqlConnection = {
    dialect: 'sqlite',
    get: (text, params) => (open ? whenFree(() => now.get(text, params)) : now.get(text, params)),
    all: (text, params) => (open ? whenFree(() => now.all(text, params)) : now.all(text, params)),
    arrays: (text, params) => (open ? whenFree(() => now.arrays(text, params)) : now.arrays(text, params)),
    run: (text, params) => (open ? whenFree(() => now.run(text, params)) : now.run(text, params)),
    exec: (text) => (open ? whenFree(() => now.exec(text)) : now.exec(text)),
    async transaction<T>(work: (connection: SqlConnection) => Promise<T>): Promise<T> {
      if (insideWork.getStore()) throw new Error('A transaction began another on the outer connection.');
      while (open) await turn;
      open = true;
      let release = () => {};
      turn = new Promise((resolve) => (release = resolve));
      try {
        return await insideWork.run(true, () => sqliteTransactionAsync(db, () => work(inside)));
      } finally {
        open = false;
        release();
      }
    },
    close: () => whenFree(() => now.close()),
  };
  return outer;
}

async function sqliteTransactionAsync<T>(db: Database, work: () => Promise<T>): Promise<T> {
  if (db.isTransaction) return work();
  db.exec('BEGIN IMMEDIATE');
  try {
    const result = await work();
    db.exec('COMMIT');
    return result;
  } catch (error) {
    if (db.isTransaction) db.exec('ROLLBACK');
    throw error;
  }
}
