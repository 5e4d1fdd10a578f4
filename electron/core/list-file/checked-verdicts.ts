// The verdicts a service gave a job's list, read straight from the list's file: what the verdict cache
// keeps after a run. Its own home below both jobs/ (which writes the file) and cache/ (whose writer
// thread reads it), so neither imports the other's insides.
import { openDatabaseReadOnly } from '../storage/sqlite.ts';

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
