// The service's two schemas, SQLite's (store/schema.ts, migrated step by step) and PostgreSQL's
// (store/postgres-schema.ts, made in one go), are written apart: after migration they must hold the same
// tables, the same columns with the same kinds of values, and the same indexes. Any drift fails here.
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { SqlConnection } from '../../../../../electron/core/storage/sql-connection.ts';
import { openServiceStore } from '../../../../../electron/core/service/verification-service.ts';
import { testDatabase, testServicePlace } from '../../../../support/service-harness.ts';

/** The kind of value a column holds, in words both engines' type names map to. */
function kindOf(type: string): string {
  const name = type.toLowerCase();
  if (/int|double|real|numeric|float/.test(name)) return 'number';
  if (/char|text|clob/.test(name)) return 'text';
  if (/blob|bytea/.test(name)) return 'bytes';
  if (/json/.test(name)) return 'json';
  return name;
}

type Shape = { tables: Record<string, Record<string, string>>; indexes: string[] };

/** An index as what it covers, whatever each engine named it (a UNIQUE column's index, say). */
const coverage = (table: string, columns: string[], unique: boolean) =>
  `${unique ? 'unique ' : ''}${table} (${columns.join(', ')})`;

/** Bookkeeping each engine keeps its own way: the schema version, SQLite's own tables. */
const ownBookkeeping = /^(sift_schema|sqlite_)/;

async function sqliteShape(db: SqlConnection): Promise<Shape> {
  const tables: Shape['tables'] = {};
  for (const { name } of await db.all<{ name: string }>("SELECT name FROM sqlite_master WHERE type = 'table'")) {
    if (ownBookkeeping.test(name)) continue;
    const columns = await db.all<{ name: string; type: string }>(`SELECT name, type FROM pragma_table_info('${name}')`);
    tables[name] = Object.fromEntries(columns.map((column) => [column.name, kindOf(column.type)]));
  }
  // Every index but the primary key's, by what it covers: its table, its columns, whether it is unique.
  const indexes: string[] = [];
  for (const table of Object.keys(tables)) {
    const list = await db.all<{ name: string; unique: number; origin: string }>(
      `SELECT name, "unique", origin FROM pragma_index_list('${table}')`,
    );
    for (const index of list.filter((entry) => entry.origin !== 'pk')) {
      const columns = await db.all<{ name: string }>(
        `SELECT name FROM pragma_index_info('${index.name}') ORDER BY seqno`,
      );
      indexes.push(
        coverage(
          table,
          columns.map((column) => column.name),
          index.unique === 1,
        ),
      );
    }
  }
  return { tables, indexes: indexes.sort() };
}

async function postgresShape(db: SqlConnection): Promise<Shape> {
  const tables: Shape['tables'] = {};
  const columns = await db.all<{ table_name: string; column_name: string; data_type: string }>(
    `SELECT table_name, column_name, data_type FROM information_schema.columns WHERE table_schema = 'public'`,
  );
  for (const column of columns) {
    if (ownBookkeeping.test(column.table_name)) continue;
    (tables[column.table_name] ??= {})[column.column_name] = kindOf(column.data_type);
  }
  const definitions = await db.all<{ indexdef: string }>(
    "SELECT indexdef FROM pg_indexes WHERE schemaname = 'public' AND indexname NOT LIKE '%_pkey'",
  );
  const indexes = definitions.flatMap(({ indexdef }) => {
    const [, unique, table, columns] = /^CREATE (UNIQUE )?INDEX \S+ ON (?:public\.)?(\w+) USING \w+ \(([^)]*)\)/.exec(
      indexdef,
    )!;
    if (ownBookkeeping.test(table!)) return [];
    return [
      coverage(
        table!,
        columns!.split(',').map((column) => column.trim()),
        unique !== undefined,
      ),
    ];
  });
  return { tables, indexes: indexes.sort() };
}

describe.skipIf(testDatabase !== 'postgres')('the service’s two schemas', () => {
  it('hold the same tables, columns, kinds of values and indexes after migration', async () => {
    const sqlite = await openServiceStore({ dataDir: await mkdtemp(join(tmpdir(), 'sift-drift-')) });
    const postgres = await openServiceStore(await testServicePlace());
    try {
      const [fromSqlite, fromPostgres] = [await sqliteShape(sqlite.db), await postgresShape(postgres.db)];
      expect(Object.keys(fromPostgres.tables).sort()).toEqual(Object.keys(fromSqlite.tables).sort());
      for (const [table, columns] of Object.entries(fromSqlite.tables)) {
        expect(fromPostgres.tables[table], table).toEqual(columns);
      }
      expect(fromPostgres.indexes).toEqual(fromSqlite.indexes);
    } finally {
      await sqlite.db.close();
      await postgres.db.close();
    }
  });
});
