// The paced batch worker's token bucket per mail host, in the database so that every worker on it draws
// from the same buckets: together they never probe a host faster than its rate.
import type { SqlConnection } from '../../storage/sql-connection.ts';

/** Buckets per upsert: three parameters each. */
const bucketsPerStatement = 1000;

/**
 * Takes up to the wanted number of tokens from each bucket, at `rate` tokens a second with at most one
 * second's burst; answers what each bucket gave. One transaction (a round's buckets read in one
 * statement and written in a few): two workers cannot spend one token.
 */
export async function takeHostTokens(
  db: SqlConnection,
  wanted: ReadonlyMap<string, number>,
  rate: number,
  now: number,
): Promise<Map<string, number>> {
  if (wanted.size === 0) return new Map();
  return db.transaction(async (tx) => {
    const stored = new Map(
      (
        await tx.arrays<[string, number, number]>(
          `SELECT bucket, tokens, at FROM host_tokens WHERE bucket IN (${tx.dialect.jsonList})`,
          [JSON.stringify([...wanted.keys()])],
        )
      ).map(([bucket, tokens, at]) => [bucket, { tokens, at }]),
    );
    const given = new Map<string, number>();
    const updates: [string, number, number][] = [];
    for (const [bucket, want] of wanted) {
      const row = stored.get(bucket);
      // A clock a little behind the last writer's refills nothing rather than taking tokens back.
      const tokens = row ? Math.min(rate, row.tokens + (Math.max(0, now - row.at) / 1000) * rate) : rate;
      const give = Math.max(0, Math.min(want, Math.floor(tokens)));
      updates.push([bucket, tokens - give, Math.max(now, row?.at ?? now)]);
      if (give > 0) given.set(bucket, give);
    }
    for (let from = 0; from < updates.length; from += bucketsPerStatement) {
      const part = updates.slice(from, from + bucketsPerStatement);
      await tx.run(
        `INSERT INTO host_tokens (bucket, tokens, at) VALUES ${part.map(() => '(?, ?, ?)').join(', ')}
         ON CONFLICT (bucket) DO UPDATE SET tokens = excluded.tokens, at = excluded.at`,
        part.flat(),
      );
    }
    return given;
  });
}

/**
 * Buckets untouched for a minute are full, which is what a missing row gives: they go, so the table holds
 * the hosts worked lately, not every host ever seen.
 */
export async function forgetFullBuckets(db: SqlConnection, now: number): Promise<number> {
  return (await db.run('DELETE FROM host_tokens WHERE at < ?', [now - 60_000])).changes;
}
