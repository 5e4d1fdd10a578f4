// What an export reads of a job's list file (list-store.ts has the schema and the other queries): the
// rows' address ids chunk by chunk, and the addresses' verdicts. On its own, so the export's reader
// thread (verdict-reader-worker.ts) loads this and SQLite alone.
import { openDatabaseReadOnly, sql, type Database } from '../../storage/sqlite.ts';
import { verdictFlag, type ListVerdictReads, type VerdictColumns } from './list-types.ts';
import { catchAllLearnedSql, freeMailboxSql } from './score-columns.ts';

export function listVerdicts(db: Database): ListVerdictReads {
  const flags =
    `billed * ${verdictFlag.billed} + role * ${verdictFlag.role} + disposable * ${verdictFlag.disposable}` +
    ` + accepted * ${verdictFlag.accepted} + (cached_at IS NOT NULL) * ${verdictFlag.cached}` +
    ` + ${freeMailboxSql} * ${verdictFlag.free}` +
    ` + (provider IS 'Google') * ${verdictFlag.google} + (provider IS 'Microsoft') * ${verdictFlag.microsoft}` +
    ` + (earlier_valid_at IS NOT NULL) * ${verdictFlag.validEarlier}` +
    ` + CASE ${catchAllLearnedSql} WHEN 'catch_all_bounces' THEN ${verdictFlag.catchAllBounces}` +
    ` WHEN 'catch_all_delivers' THEN ${verdictFlag.catchAllDelivers} ELSE 0 END`;
  // The day of the verdict cache's verdict a row relies on: the one reused, or the earlier valid check.
  const cachedOn =
    "CASE WHEN cached_at IS NOT NULL THEN date(cached_at / 1000, 'unixepoch') " +
    "WHEN earlier_valid_at IS NOT NULL THEN date(earlier_valid_at / 1000, 'unixepoch') END";
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
