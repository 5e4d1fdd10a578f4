// What an export reads of a job's list file (list-store.ts has the schema and the other queries): the
// rows' address ids chunk by chunk, and the addresses' verdicts. On its own, so the export's reader
// thread (verdict-reader-worker.ts) loads this and SQLite alone.
import { openDatabaseReadOnly, sql, type Database } from '../../storage/sqlite.ts';
import { verdictFlag, type ListVerdictReads, type VerdictColumns } from './list-types.ts';

export function listVerdicts(db: Database): ListVerdictReads {
  const flags =
    `billed * ${verdictFlag.billed} + role * ${verdictFlag.role} + disposable * ${verdictFlag.disposable}` +
    ` + accepted * ${verdictFlag.accepted} + (cached_at IS NOT NULL) * ${verdictFlag.cached}`;
  const cachedOn = "CASE WHEN cached_at IS NULL THEN NULL ELSE date(cached_at / 1000, 'unixepoch') END";
  const verdictsBetween = sql(
    db,
    `SELECT result, ${flags}, reason, suggestion, ${cachedOn} FROM address_verdicts WHERE id BETWEEN ? AND ? ORDER BY id`,
  );
  verdictsBetween.setReturnArrays(true);
  return {
    /** Rows' address ids chunk by chunk, in row order. */
    *rowChunks(): Generator<{ firstRow: number; addressIds: Int32Array }> {
      for (const row of sql(db, 'SELECT first_row, address_ids FROM row_chunks ORDER BY first_row').iterate()) {
        const { first_row: firstRow, address_ids: bytes } = row as { first_row: number; address_ids: Uint8Array };
        // Copied out: the blob's buffer is not guaranteed to be aligned for Int32Array.
        yield { firstRow, addressIds: new Int32Array(bytes.slice().buffer) };
      }
    },

    /**
     * What the export needs of the addresses with ids in [firstId, lastId] (every id in it exists), as arrays
     * in `VerdictColumns` order: a million objects with named fields would cost more than the rest of the export.
     */
    verdictsBetween(firstId: number, lastId: number): VerdictColumns[] {
      return verdictsBetween.all(firstId, lastId) as unknown as VerdictColumns[];
    },
  };
}

/** The reads on a read-only connection of their own, to a list file list-store.ts has made and migrated. */
export function openListVerdicts(path: string): ListVerdictReads & { close(): void } {
  const db = openDatabaseReadOnly(path);
  return { ...listVerdicts(db), close: () => db.close() };
}

/** A verdict a service gave: the address's key, the result and the reason (a row as SQLite gives it). */
export type CheckedVerdict = [key: string, result: string, reason: string | null];

/**
 * The verdicts a service gave this list (none reused from the cache, none Sift's own), in id order, a
 * page at a time: what the verdict cache keeps after a run. On a read-only connection of its own.
 */
export function* checkedVerdicts(
  path: string,
  results: readonly string[],
  pageSize = 10_000,
): Generator<CheckedVerdict[]> {
  const db = openDatabaseReadOnly(path);
  try {
    // Rows as arrays, the id last: a million of them are the most this thread makes. The service's
    // verdicts are in their own table; an older Sift recorded them in the address's row. The results are
    // bound one by one: a json_each list costs more per row than reading the row.
    const among = `IN (${results.map(() => '?').join(', ')})`;
    const sources = [
      `SELECT addresses.key, verdicts.result, verdicts.reason, verdicts.id FROM verdicts
       JOIN addresses ON addresses.id = verdicts.id
       WHERE verdicts.id > ? AND verdicts.result ${among} ORDER BY verdicts.id LIMIT ?`,
      `SELECT key, result, reason, id FROM addresses WHERE id > ? AND sendable = 1 AND cached_at IS NULL
       AND result ${among} ORDER BY id LIMIT ?`,
    ];
    for (const source of sources) {
      const page = db.prepare(source);
      page.setReturnArrays(true);
      for (let after = 0; ;) {
        const rows = page.all(after, ...results, pageSize) as unknown as [...CheckedVerdict, number][];
        if (rows.length === 0) break;
        after = rows.at(-1)![3];
        yield rows as unknown as CheckedVerdict[];
      }
    }
  } finally {
    db.close();
  }
}
