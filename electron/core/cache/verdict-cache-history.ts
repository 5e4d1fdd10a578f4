// What the accuracy ledger (outcomes/) reads of the verdict cache: what Sift said of given addresses
// before a bounce was read for them, and how many verdicts of each result every day holds. Live verdicts
// only: a demo verdict is no check of an address, and a verdict the outcomes wrote is not one of Sift's.
import { existsSync } from 'node:fs';
import { sql } from '../storage/sqlite.ts';
import { modeNumber, openCacheDatabase, verdictCacheFiles } from './verdict-cache-schema.ts';

/** The service name the outcomes keep their verdicts under (a bounce, never a check). */
export const outcomesService = 'sift:outcomes';

export type CheckedVerdict = { result: string; reason: string | null; checkedAt: number };

export function openCacheHistory(dataDir: string) {
  if (!existsSync(verdictCacheFiles(dataDir).db)) return undefined;
  const db = openCacheDatabase(dataDir);
  return {
    /** Sift's own live verdict for each key that has one (those written from an outcome are left out). */
    verdictsOf(keys: readonly string[]): Map<string, CheckedVerdict> {
      const rows = sql(
        db,
        `SELECT wanted.value AS key, kinds.result, kinds.reason, kinds.checked_at AS checkedAt
         FROM json_each(?) AS wanted CROSS JOIN verdicts ON verdicts.mode = ? AND verdicts.key = wanted.value
         CROSS JOIN verdict_kinds AS kinds ON kinds.id = verdicts.kind
         WHERE kinds.service NOT IN (SELECT id FROM services WHERE url = ?)`,
      ).all(JSON.stringify(keys), modeNumber.live, outcomesService) as (CheckedVerdict & { key: string })[];
      return new Map(rows.map(({ key, ...verdict }) => [key, verdict]));
    },
    /** Live verdicts by the UTC day they were got and their result, those of outcomes left out. */
    checkedByDay(): { day: string; result: string; addresses: number }[] {
      return sql(
        db,
        `SELECT date(kinds.checked_at / 1000, 'unixepoch') AS day, kinds.result, SUM(counted.n) AS addresses
         FROM (SELECT kind, COUNT(*) AS n FROM verdicts WHERE mode = ? GROUP BY kind) AS counted
         JOIN verdict_kinds AS kinds ON kinds.id = counted.kind
         WHERE kinds.service NOT IN (SELECT id FROM services WHERE url = ?)
         GROUP BY day, kinds.result ORDER BY day, kinds.result`,
      ).all(modeNumber.live, outcomesService) as { day: string; result: string; addresses: number }[];
    },
    /** Forgets the verdicts bounces wrote for these keys (a bounce undone); Sift's own checks stay. */
    forgetBounces(keys: readonly string[]): number {
      return Number(
        sql(
          db,
          `DELETE FROM verdicts WHERE mode = ? AND key IN (SELECT value FROM json_each(?))
           AND kind IN (SELECT id FROM verdict_kinds WHERE service IN (SELECT id FROM services WHERE url = ?))`,
        ).run(modeNumber.live, JSON.stringify(keys), outcomesService).changes,
      );
    },
    close: () => db.close(),
  };
}
