// One job's list in its own SQLite file (<data>/jobs/<jobId>.sqlite), owned by this module alone:
//   addresses   every distinct address in order of first appearance, its pre-check flags and the verdict
//               the import gave it (bad syntax, or reused from the verdict cache)
//   verdicts    the verdicts a service gave, by address id (address_verdicts shows both as one)
//   row_chunks  for each run of rows, the address id of every row (0: no address), packed
//   parts       the batches the addresses are sent in, with the Idempotency-Key chosen before sending,
//               the batch id the service gave, and how far its results have been read
//   counters    running totals (addresses checked), so progress is O(1), never a count over the job
// A job's file goes away whole when the job is deleted.
import { listAppender } from './list-store-append.ts';
import { listVerdicts } from './list-store-verdicts.ts';
import type { StatementSync } from 'node:sqlite';
import { openDatabase, sql, transaction } from '../../storage/sqlite.ts';
import { migrateOrRestore } from '../../storage/store-versions.ts';
import type { VerdictChanges } from '../../../common/list-schemas.ts';
import { migrateListStore, toAddress, type AddressRow } from './list-store-schema.ts';
import { partsOf } from './list-store-parts.ts';
import { counterValue, rowTextStore } from './list-store-rows.ts';
import { rowSearch } from './list-store-search.ts';
import { catchAllEvidenceStore } from './list-store-evidence.ts';
import { domainCounts, providerCounts, scoreGroups, unknownReasonCounts } from './list-store-breakdown.ts';
import type { AddressRecord, ListStore, VerdictRow } from './list-types.ts';

/** Verdicts per multi-row INSERT: a statement per verdict would cost more than the verdicts themselves. */
const insertGroup = 32;
const valuesPerVerdict = 5;
const verdictValues = `(${Array(valuesPerVerdict).fill('?').join(', ')})`;

/**
 * The rows of many ids in one query: the range they span when they are mostly one dense range (results come
 * back in about the order addresses were sent), else the ids themselves. The answer may hold more.
 */
function rowsOfIds<Row>(ids: readonly number[], between: StatementSync, among: StatementSync): Row[] {
  if (ids.length === 0) return [];
  let low = Infinity;
  let high = -Infinity;
  for (const id of ids) {
    if (id < low) low = id;
    if (id > high) high = id;
  }
  return (high - low < 2 * ids.length ? between.all(low, high) : among.all(JSON.stringify(ids))) as unknown as Row[];
}

export function openListStore(path: string): ListStore {
  const db = openDatabase(path);
  migrateOrRestore(path, db, () => migrateListStore(db));

  /**
   * Verdicts for `count` addresses in one statement, appended in id order; RETURNING tells which were their
   * first (an address with a verdict already, from the service or the import, gets none).
   */
  const guardedInsert = (count: number) => {
    const statement = sql(
      db,
      `INSERT INTO verdicts (id, result, billed, reason, provider)
       SELECT v.column1, v.column2, v.column3, v.column4, v.column5
       FROM (VALUES ${Array(count).fill(verdictValues).join(', ')}) AS v JOIN addresses ON addresses.id = v.column1
       WHERE addresses.result IS NULL
       ON CONFLICT (id) DO NOTHING RETURNING result, billed`,
    );
    statement.setReturnArrays(true);
    return statement;
  };
  /**
   * Verdicts known to be first: of addresses sent without one and not recorded yet. Neither the join nor
   * RETURNING is needed, and each cost more than the insert itself.
   */
  const plainInsert = (count: number) =>
    sql(
      db,
      `INSERT INTO verdicts (id, result, billed, reason, provider) VALUES ${Array(count).fill(verdictValues).join(', ')}`,
    );
  const plainGroup = plainInsert(insertGroup);
  const guardedGroup = guardedInsert(insertGroup);
  const recordedBetween = sql(db, 'SELECT id FROM verdicts WHERE id BETWEEN ? AND ?');
  recordedBetween.setReturnArrays(true);
  const recordedIn = sql(db, 'SELECT id FROM verdicts WHERE id IN (SELECT value FROM json_each(?))');
  recordedIn.setReturnArrays(true);
  /** Which of these ids have a service's verdict already (read again after a crash, say). */
  const recordedAmong = (ids: readonly number[]) =>
    new Set(rowsOfIds<[number]>(ids, recordedBetween, recordedIn).map((row) => row[0]));
  const keysBetween = sql(db, 'SELECT id, key FROM addresses WHERE id BETWEEN ? AND ?');
  keysBetween.setReturnArrays(true);
  const keysIn = sql(db, 'SELECT id, key FROM addresses WHERE id IN (SELECT value FROM json_each(?))');
  keysIn.setReturnArrays(true);

  return {
    close: () => db.close(),

    /** Drops whatever an earlier, interrupted import left. Nothing has been sent for it. */
    clear() {
      transaction(db, () => {
        for (const table of ['addresses', 'verdicts', 'row_chunks', 'parts', 'counters'])
          sql(db, `DELETE FROM ${table}`).run();
      });
    },

    /** The stored keys of many addresses in one query (confirming a page of results at once); the answer may hold more. */
    keysOf(ids: readonly number[]): Map<number, string> {
      return new Map(rowsOfIds<[number, string]>(ids, keysBetween, keysIn));
    },

    keyOf(id: number): string | undefined {
      return (sql(db, 'SELECT key FROM addresses WHERE id = ?').get(id) as { key: string } | undefined)?.key;
    },

    /** Every (id, key), in id order: to rebuild an address index without holding rows. */
    *keys(): Generator<{ id: number; key: string }> {
      for (const row of sql(db, 'SELECT id, key FROM addresses ORDER BY id').iterate()) {
        yield row as { id: number; key: string };
      }
    },

    addressesBetween(firstId: number, lastId: number): AddressRecord[] {
      return (
        sql(db, 'SELECT * FROM address_verdicts WHERE id BETWEEN ? AND ? ORDER BY id').all(
          firstId,
          lastId,
        ) as AddressRow[]
      ).map(toAddress);
    },

    address(id: number): AddressRecord | undefined {
      const row = sql(db, 'SELECT * FROM address_verdicts WHERE id = ?').get(id) as AddressRow | undefined;
      return row && toAddress(row);
    },

    ...partsOf(db),

    ...listAppender(db),

    ...listVerdicts(db),

    rowText: () => rowTextStore(db),
    search: () => rowSearch(db),
    domainCounts: (limit) => domainCounts(db, limit),
    providerCounts: (providers) => providerCounts(db, providers),
    unknownReasonCounts: () => unknownReasonCounts(db),
    scoreGroups: () => scoreGroups(db),

    /**
     * Verdicts and where reading stopped, in one transaction: a crash keeps both or neither. A verdict
     * already recorded is never written twice, so rows read again after a crash change nothing.
     * Answers how many addresses got their first verdict.
     */
    recordResults(
      part: number,
      rows: readonly VerdictRow[],
      position: { cursor?: string | null; skip?: number; resultsIn?: boolean; endStatus?: string },
    ): number {
      return transaction(db, () => {
        const added = new Map<string, number>();
        const add = (name: string, by = 1) => added.set(name, (added.get(name) ?? 0) + by);
        const count = (result: string, billed: boolean) => {
          add('checked');
          add(`result:${result}`);
          if (billed) add('billed');
        };
        // Only the first verdict for an address counts: a later one in `rows` would change nothing.
        const seen = recordedAmong(rows.filter((row) => row.sentPending).map((row) => row.id));
        const plain: (string | number | null)[] = [];
        const guarded: (string | number | null)[] = [];
        const writeGuarded = (statement: StatementSync) => {
          for (const [result, billed] of statement.all(...guarded) as unknown as [string, number][]) {
            count(result, billed === 1);
          }
          guarded.length = 0;
        };
        for (const row of rows) {
          if (seen.has(row.id)) continue;
          seen.add(row.id);
          (row.sentPending ? plain : guarded).push(
            row.id,
            row.result,
            row.billed ? 1 : 0,
            row.reason,
            row.provider ?? null,
          );
          if (row.sentPending) {
            count(row.result, row.billed);
            if (plain.length === insertGroup * valuesPerVerdict) {
              plainGroup.run(...plain);
              plain.length = 0;
            }
          } else if (guarded.length === insertGroup * valuesPerVerdict) writeGuarded(guardedGroup);
        }
        if (plain.length > 0) plainInsert(plain.length / valuesPerVerdict).run(...plain);
        if (guarded.length > 0) writeGuarded(guardedInsert(guarded.length / valuesPerVerdict));
        const bump = sql(
          db,
          'INSERT INTO counters (name, value) VALUES (?, ?) ON CONFLICT (name) DO UPDATE SET value = value + excluded.value',
        );
        for (const [name, value] of added) bump.run(name, value);
        if (position.cursor !== undefined) {
          sql(db, 'UPDATE parts SET cursor = ?, skip = ? WHERE part = ?').run(
            position.cursor,
            position.skip ?? 0,
            part,
          );
        }
        // The batch's end status lands with its last verdicts: a crash between them would leave a part
        // read to the end that no later run reads again, with no end to say how it ended.
        if (position.resultsIn) {
          sql(db, 'UPDATE parts SET results_in = 1, status = COALESCE(?, status) WHERE part = ?').run(
            position.endStatus ?? null,
            part,
          );
        }
        return added.get('checked') ?? 0;
      });
    },

    /** Every running total, by name (`checked`, `billed`, `result:<verdict>` …): O(1), never a count. */
    counters(): Map<string, number> {
      const rows = sql(db, 'SELECT name, value FROM counters').all() as { name: string; value: number }[];
      return new Map(rows.map((row) => [row.name, row.value]));
    },

    /** What changed since the last check, as the verdict cache counted it: kept as `changed:<field>` totals. */
    recordChanges(changes: VerdictChanges): void {
      transaction(db, () => {
        sql(db, "DELETE FROM counters WHERE name LIKE 'changed:%'").run();
        const put = sql(db, 'INSERT INTO counters (name, value) VALUES (?, ?)');
        for (const [field, value] of Object.entries(changes)) {
          put.run(`changed:${field}`, field === 'earlier_checked_at' ? Date.parse(value as string) : (value as number));
        }
      });
    },

    /** How many sent addresses have their verdict. */
    checkedCount(): number {
      return counterValue(db, 'checked') ?? 0;
    },

    catchAllEvidence: catchAllEvidenceStore(db),
  };
}
