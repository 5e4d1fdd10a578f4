// SQLite through node:sqlite: one file, WAL, and every commit durable before it is acknowledged.
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { DatabaseSync, type StatementSync } from 'node:sqlite';

export type Database = DatabaseSync;

export function openDatabase(path: string): Database {
  if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  const db = new DatabaseSync(path);
  // The busy timeout comes first: after a crash, another connection may be recovering the WAL
  // just as this one opens, and even switching to WAL mode must then wait rather than fail.
  db.exec(`
    PRAGMA busy_timeout = 5000;
    PRAGMA journal_mode = WAL;
    PRAGMA synchronous = FULL;
    PRAGMA foreign_keys = ON;
  `);
  return db;
}

/** A connection that only reads, to a database another connection made: it never creates the file. */
export function openDatabaseReadOnly(path: string): Database {
  const db = new DatabaseSync(path, { readOnly: true });
  db.exec('PRAGMA busy_timeout = 5000');
  return db;
}

/** Runs `work` in one transaction. `work` must be synchronous, so nothing else interleaves on this connection. */
export function transaction<T>(db: Database, work: () => T): T {
  if (db.isTransaction) return work();
  db.exec('BEGIN IMMEDIATE');
  try {
    const result = work();
    db.exec('COMMIT');
    return result;
  } catch (error) {
    db.exec('ROLLBACK');
    throw error;
  }
}

const statementCache = new WeakMap<Database, Map<string, StatementSync>>();

/**
 * A prepared statement, made once per database and SQL text. Statements hold native memory that V8
 * does not see, so preparing one per call in a hot loop lets memory grow until a late GC.
 */
export function sql(db: Database, text: string): StatementSync {
  let statements = statementCache.get(db);
  if (!statements) {
    statements = new Map();
    statementCache.set(db, statements);
  }
  let statement = statements.get(text);
  if (!statement) {
    statement = db.prepare(text);
    statements.set(text, statement);
  }
  return statement;
}

/** Whether a table has that column: a migration adds a column only where it is not there yet. */
export const hasColumn = (db: Database, table: string, column: string) =>
  sql(db, 'SELECT 1 AS found FROM pragma_table_info(?) WHERE name = ?').get(table, column) !== undefined;
