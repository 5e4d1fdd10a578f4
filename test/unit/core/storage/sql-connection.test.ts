import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { sqliteConnection, type SqlConnection } from '../../../../electron/core/storage/sql-connection.ts';
import { openDatabase } from '../../../../electron/core/storage/sqlite.ts';

let dir: string;
let db: SqlConnection;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'sift-sql-'));
  db = sqliteConnection(openDatabase(join(dir, 'test.sqlite')));
  await db.exec(
    'CREATE TABLE counter (id INTEGER PRIMARY KEY, value INTEGER NOT NULL); INSERT INTO counter VALUES (1, 0);',
  );
});
afterEach(async () => {
  await db.close();
  await rm(dir, { recursive: true, force: true });
});

const pause = () => new Promise((resolve) => setTimeout(resolve, 5));
const value = async () => (await db.get<{ value: number }>('SELECT value FROM counter WHERE id = 1'))!.value;

describe('SQLite behind the asynchronous connection', () => {
  it('runs transactions that await between statements one after another, so no increment is lost', async () => {
    const increment = () =>
      db.transaction(async (tx) => {
        const { value: before } = (await tx.get<{ value: number }>('SELECT value FROM counter WHERE id = 1'))!;
        await pause();
        await tx.run('UPDATE counter SET value = ? WHERE id = 1', [before + 1]);
      });
    await Promise.all(Array.from({ length: 20 }, increment));
    expect(await value()).toBe(20);
  });

  it('keeps a caller outside the transaction from seeing or joining its writes until it commits', async () => {
    let seenDuring: number | undefined;
    const open = db.transaction(async (tx) => {
      await tx.run('UPDATE counter SET value = 41 WHERE id = 1');
      await pause();
      await tx.run('UPDATE counter SET value = value + 1 WHERE id = 1');
    });
    const outside = (async () => {
      seenDuring = await value();
    })();
    await Promise.all([open, outside]);
    expect(seenDuring).toBe(42);
  });

  it('rolls back all of a transaction whose work fails, and lets the next caller in', async () => {
    await expect(
      db.transaction(async (tx) => {
        await tx.run('UPDATE counter SET value = 7 WHERE id = 1');
        await pause();
        throw new Error('no');
      }),
    ).rejects.toThrow('no');
    expect(await value()).toBe(0);
    await db.run('UPDATE counter SET value = 1 WHERE id = 1');
    expect(await value()).toBe(1);
  });

  it('refuses the outer connection inside a transaction rather than waiting for itself for ever', async () => {
    await expect(
      db.transaction(async () => {
        await db.run('UPDATE counter SET value = 9 WHERE id = 1');
      }),
    ).rejects.toThrow(/outer connection/);
    expect(await value()).toBe(0);
  });

  it('joins a transaction begun inside another, and reads rows as arrays', async () => {
    await db.transaction(async (tx) =>
      tx.transaction(async (inner) => {
        await inner.run('INSERT INTO counter VALUES (2, 5)');
      }),
    );
    expect(await db.arrays('SELECT id, value FROM counter ORDER BY id')).toEqual([
      [1, 0],
      [2, 5],
    ]);
    expect(await db.all('SELECT id FROM counter WHERE id = ?', [2])).toEqual([{ id: 2 }]);
  });
});
