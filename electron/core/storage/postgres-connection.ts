// PostgreSQL behind the same asynchronous connection as SQLite (sql-connection.ts), through `pg`'s pool.
// Stores write `?` placeholders; they become $1, $2, … here. Every transaction is SERIALIZABLE, so a
// store's read-then-write is as safe as on SQLite's single writer, and one that loses a race with another
// process is run again from the top (its work changes nothing outside the database until it returns).
import type Pg from 'pg';
import { createRequire } from 'node:module';
import { lazyPackage } from '../lazy-package.ts';
import type { SqlConnection, SqlValue } from './sql-connection.ts';
import { postgresDialect } from './sql-dialect.ts';

const require = createRequire(import.meta.url);

const pg = lazyPackage<typeof Pg>(() => require('pg'));

// Counts, sums and 64-bit keys arrive as numbers: stores take whole keys apart in SQL, never in JS, so
// every 64-bit value that reaches JS is a count, a seq or a time, all well below 2^53.
const int8 = 20;
const numeric = 1700;
const types = {
  getTypeParser(oid: number, format?: string) {
    if (oid === int8 || oid === numeric) return (text: string) => Number(text);
    return pg().types.getTypeParser(oid, format as 'text');
  },
};

/** How many times a transaction that lost a race (serialization failure, deadlock) is run again. */
const maxAttempts = 20;
const retryable = new Set(['40001', '40P01']);

const placeholderCache = new Map<string, string>();

/** `?` → `$n`, outside quoted text and identifiers. */
function numberPlaceholders(text: string): string {
  let numbered = placeholderCache.get(text);
  if (numbered !== undefined) return numbered;
  let index = 0;
  let quote: string | null = null;
  numbered = '';
  for (const char of text) {
    if (quote) {
      if (char === quote) quote = null;
    } else if (char === "'" || char === '"') {
      quote = char;
    } else if (char === '?') {
      index += 1;
      numbered += `$${index}`;
      continue;
    }
    numbered += char;
  }
  if (placeholderCache.size > 2000) placeholderCache.clear();
  placeholderCache.set(text, numbered);
  return numbered;
}

type Queryable = Pick<Pg.PoolClient, 'query'>;

function over(queryable: Queryable, transaction: SqlConnection['transaction'], close: () => Promise<void>) {
  const query = (text: string, params: readonly SqlValue[] = [], rowMode?: 'array') =>
    queryable.query({
      text: numberPlaceholders(text),
      values: params as unknown[],
      types,
      ...(rowMode ? { rowMode } : {}),
    });
  const connection: SqlConnection = {
    dialect: postgresDialect,
    get: async <Row>(text: string, params?: readonly SqlValue[]) =>
      (await query(text, params)).rows[0] as Row | undefined,
    all: async <Row>(text: string, params?: readonly SqlValue[]) => (await query(text, params)).rows as Row[],
    arrays: async <Row extends unknown[]>(text: string, params?: readonly SqlValue[]) =>
      (await query(text, params, 'array')).rows as Row[],
    run: async (text, params) => ({ changes: (await query(text, params)).rowCount ?? 0 }),
    async exec(text) {
      await queryable.query(text);
    },
    transaction,
    close,
  };
  return connection;
}

export function postgresConnection(url: string, options: { max?: number } = {}): SqlConnection {
  const pool = new (pg().Pool)({ connectionString: url, max: options.max ?? 10 });
  // An idle client's error (the server restarted) must not crash the process; the next query reconnects.
  pool.on('error', (error) => console.error('sift: a PostgreSQL connection failed:', error.message));

  async function transaction<T>(
    work: (connection: SqlConnection) => Promise<T>,
    options: { oneAtATime?: string } = {},
  ): Promise<T> {
    for (let attempt = 1; ; attempt += 1) {
      const client = await pool.connect();
      const inside = over(
        client,
        (nested) => nested(inside),
        async () => {},
      );
      // Taken before BEGIN, so the transaction's snapshot is from after the previous holder committed:
      // taken inside, the wait would end in a serialization failure.
      const lock = options.oneAtATime;
      /**
       * Lets go of the lock; answers whether the connection is broken. One that cannot is: it leaves the
       * pool rather than going back, and closing it lets go of the lock.
       */
      const unlock = async () =>
        lock
          ? client.query('SELECT pg_advisory_unlock(hashtext($1))', [lock]).then(
              () => false,
              () => true,
            )
          : false;
      try {
        if (lock) await client.query('SELECT pg_advisory_lock(hashtext($1))', [lock]);
        await client.query('BEGIN ISOLATION LEVEL SERIALIZABLE');
        const result = await work(inside);
        await client.query('COMMIT');
        // Committed: a lock that will not let go breaks the connection, not the transaction.
        client.release(await unlock());
        return result;
      } catch (error) {
        // A connection that cannot even roll back is broken too.
        const broken = await client.query('ROLLBACK').then(unlock, () => true);
        client.release(broken);
        const code = (error as { code?: string }).code;
        if (attempt >= maxAttempts || !code || !retryable.has(code)) throw error;
        // A little random wait, so two processes that collided do not collide again.
        await new Promise((resolve) => setTimeout(resolve, Math.random() * 5 * attempt));
      }
    }
  }

  return over(pool, transaction, () => pool.end());
}
