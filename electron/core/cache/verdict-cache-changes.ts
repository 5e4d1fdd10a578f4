// What changed since an address was last checked: counted while a list's new verdicts are merged into the
// verdict cache, from the staged verdicts and the ones they replace (all by keyed hash; no address is
// read). Only a verdict older than the new one counts as "the last check".
import type { VerdictChanges } from '../../common/list-schemas.ts';
import { sql, type Database } from '../storage/sqlite.ts';

type Transition = { was: string; now: string; n: number; first: number; gapSum: number };

const day = 86_400_000;

/** From the `incoming` staging table against the kept verdicts of `mode`; undefined when none was checked before. */
export function countChanges(db: Database, mode: number): VerdictChanges | undefined {
  const rows = sql(
    db,
    `SELECT old.result AS was, new.result AS now, COUNT(*) AS n, MIN(old.checked_at) AS first,
       SUM(new.checked_at - old.checked_at) AS "gapSum"
     FROM incoming
     JOIN verdicts ON verdicts.mode = ? AND verdicts.key = incoming.key
     JOIN verdict_kinds AS old ON old.id = verdicts.kind
     JOIN verdict_kinds AS new ON new.id = incoming.kind
     WHERE old.checked_at < new.checked_at
     GROUP BY old.result, new.result`,
  ).all(mode) as Transition[];
  if (rows.length === 0) return undefined;
  const sum = (match: (row: Transition) => boolean) => rows.filter(match).reduce((total, row) => total + row.n, 0);
  const compared = sum(() => true);
  const gaps = rows.reduce((total, row) => total + row.gapSum, 0);
  return {
    compared,
    earlier_checked_at: new Date(Math.min(...rows.map((row) => row.first))).toISOString(),
    days: Math.round((gaps / compared / day) * 10) / 10,
    was_valid: sum((row) => row.was === 'valid'),
    valid_to_invalid: sum((row) => row.was === 'valid' && row.now === 'invalid'),
    invalid_to_valid: sum((row) => row.was === 'invalid' && row.now === 'valid'),
    became_catch_all: sum((row) => row.was !== 'catch_all' && row.now === 'catch_all'),
    became_unknown: sum((row) => row.was !== 'unknown' && row.now === 'unknown'),
    unchanged: sum((row) => row.was === row.now),
  };
}
