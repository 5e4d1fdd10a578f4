// How an import adds to a job's list file (list-store.ts has the schema and every other query): on its
// own, so the import's writer thread (import-writer-worker.ts) loads this and SQLite alone.
import { badSyntaxResult, ruledResult, suppressedResult } from '../../../common/list-funnel.ts';
import { ruleReason } from '../../../common/domain-rules.ts';
import { openDatabase, sql, transaction, type Database } from '../../storage/sqlite.ts';
import type { CacheHit } from '../../cache/cache-lookup.ts';
import type { ListAppender, NewAddress } from './list-types.ts';

/** Rows per multi-row INSERT: one statement per 32 addresses costs far less than 32 statements. */
const insertGroup = 32;
const addressColumns =
  'id, key, address, first_row, sendable, role, disposable, suggestion, result, reason, cached_at, earlier_valid_at';

export function listAppender(db: Database): ListAppender {
  const groupInsert = sql(
    db,
    `INSERT INTO addresses (${addressColumns}) VALUES ${Array(insertGroup).fill('(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)').join(', ')}`,
  );
  const oneInsert = sql(db, `INSERT INTO addresses (${addressColumns}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`);
  const columnCount = 12;
  const bump = sql(
    db,
    'INSERT INTO counters (name, value) VALUES (?, ?) ON CONFLICT (name) DO UPDATE SET value = value + excluded.value',
  );
  const groupArgs: (string | number | null)[] = new Array(insertGroup * columnCount);
  /** Writes an address's values into `args` at `at`, in `addressColumns` order. */
  const fill = (args: (string | number | null)[], at: number, a: NewAddress, cached: CacheHit | undefined) => {
    args[at] = a.id;
    args[at + 1] = a.key;
    args[at + 2] = a.address;
    args[at + 3] = a.firstRow;
    args[at + 4] = a.sendable ? 1 : 0;
    args[at + 5] = a.role ? 1 : 0;
    args[at + 6] = a.disposable ? 1 : 0;
    args[at + 7] = a.suggestion;
    // Bad syntax, a suppressed address and one a rule decides have their verdict from the start; so has one the cache knows.
    const hit = a.sendable && !cached?.stale ? cached : undefined;
    if (hit || a.sendable) {
      args[at + 8] = hit ? hit.result : null;
      args[at + 9] = hit ? hit.reason : null;
    } else if (a.ruled) {
      // A rule to treat the domain as catch-all gives that verdict (and its score); the others their own.
      args[at + 8] = a.ruled === 'catch_all' ? 'catch_all' : ruledResult;
      args[at + 9] = ruleReason(a.ruled);
    } else {
      args[at + 8] = a.suppressed ? suppressedResult : badSyntaxResult;
      args[at + 9] = a.suppressed ? `suppressed_${a.suppressed}` : 'syntax';
    }
    args[at + 10] = hit ? hit.cachedAt : null;
    // Valid at an earlier check too old to reuse: checked again, and its history kept for the score.
    args[at + 11] = a.sendable && cached?.stale ? cached.cachedAt : null;
  };

  return {
    /**
     * Import mode: commits are not flushed to disk one by one. An import cut short by a crash is
     * started over from the file anyway (`clear`).
     */
    beginBulk: () => db.exec('PRAGMA synchronous = OFF'),
    /**
     * Full durability again, for what the import wrote too: its last commits are copied into the list
     * file and flushed, before the catalog records the list as imported.
     */
    endBulk: () => db.exec('PRAGMA synchronous = FULL; PRAGMA wal_checkpoint(FULL)'),

    /** Appends addresses and a chunk of rows together, in one transaction. */
    appendImport(addresses, firstRow, addressIds, hits): void {
      transaction(db, () => {
        // Verdicts reused from the cache count as such, and per verdict, as recorded ones do.
        const added = new Map<string, number>();
        hits?.forEach((hit, place) => {
          if (!hit || hit.stale || !addresses[place]!.sendable) return;
          added.set('cached', (added.get('cached') ?? 0) + 1);
          added.set(`result:${hit.result}`, (added.get(`result:${hit.result}`) ?? 0) + 1);
        });
        for (const [name, value] of added) bump.run(name, value);
        let i = 0;
        for (; i + insertGroup <= addresses.length; i += insertGroup) {
          for (let j = 0; j < insertGroup; j += 1) fill(groupArgs, j * columnCount, addresses[i + j]!, hits?.[i + j]);
          groupInsert.run(...groupArgs);
        }
        const oneArgs: (string | number | null)[] = new Array(columnCount);
        for (; i < addresses.length; i += 1) {
          fill(oneArgs, 0, addresses[i]!, hits?.[i]);
          oneInsert.run(...oneArgs);
        }
        if (addressIds.length > 0) {
          sql(db, 'INSERT INTO row_chunks (first_row, address_ids) VALUES (?, ?)').run(
            firstRow,
            new Uint8Array(addressIds.buffer, addressIds.byteOffset, addressIds.byteLength),
          );
        }
      });
    },
  };
}

/** The appender on a connection of its own, to a list file list-store.ts has made. */
export function openListAppender(path: string): ListAppender & { close(): void } {
  const db = openDatabase(path);
  return { ...listAppender(db), close: () => db.close() };
}
