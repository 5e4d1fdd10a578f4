// The stores' one promise about transactions, on each engine: a read-then-write in a transaction is never
// lost to another one running at the same time (SQLite takes turns; PostgreSQL runs the loser again).
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postgresConnection } from '../../../../electron/core/storage/postgres-connection.ts';
import { sqliteConnection, type SqlConnection } from '../../../../electron/core/storage/sql-connection.ts';
import { openDatabase } from '../../../../electron/core/storage/sqlite.ts';
import { testDatabase, testServicePlace } from '../../../support/service-harness.ts';

let db: SqlConnection;
beforeAll(async () => {
  const place = await testServicePlace();
  db = place.database
    ? postgresConnection(place.database, { max: 8 })
    : sqliteConnection(openDatabase(join(place.dataDir, 'test.sqlite')));
  await db.exec('CREATE TABLE counter (id INTEGER PRIMARY KEY, value INTEGER NOT NULL)');
  await db.run('INSERT INTO counter (id, value) VALUES (1, 0)');
});
afterAll(() => db.close());

describe(`transactions on ${testDatabase}`, () => {
  it('loses no increment when twenty read-then-write transactions run at once', async () => {
    const increment = () =>
      db.transaction(async (tx) => {
        const { value } = (await tx.get<{ value: number }>('SELECT value FROM counter WHERE id = ?', [1]))!;
        await new Promise((resolve) => setTimeout(resolve, 2));
        await tx.run('UPDATE counter SET value = ? WHERE id = ?', [value + 1, 1]);
      });
    await Promise.all(Array.from({ length: 20 }, increment));
    expect((await db.get<{ value: number }>('SELECT value FROM counter WHERE id = 1'))!.value).toBe(20);
    expect(db.dialect.name).toBe(testDatabase);
  });
});
