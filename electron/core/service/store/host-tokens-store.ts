// The paced batch worker's token bucket per mail host, in the database so that every worker on it draws
// from the same buckets: together they never probe a host faster than its rate.
import type { SqlConnection } from '../../storage/sql-connection.ts';

/**
 * Takes up to the wanted number of tokens from each bucket, at `rate` tokens a second with at most one
 * second's burst; answers what each bucket gave. One transaction: two workers cannot spend one token.
 */
export async function takeHostTokens(
  db: SqlConnection,
  wanted: ReadonlyMap<string, number>,
  rate: number,
  now: number,
): Promise<Map<string, number>> {
  return db.transaction(async (tx) => {
    const given = new Map<string, number>();
    for (const [bucket, want] of wanted) {
      const row = await tx.get<{ tokens: number; at: number }>('SELECT tokens, at FROM host_tokens WHERE bucket = ?', [
        bucket,
      ]);
      // A clock a little behind the last writer's refills nothing rather than taking tokens back.
      const tokens = row ? Math.min(rate, row.tokens + (Math.max(0, now - row.at) / 1000) * rate) : rate;
      const give = Math.max(0, Math.min(want, Math.floor(tokens)));
      await tx.run(
        `INSERT INTO host_tokens (bucket, tokens, at) VALUES (?, ?, ?)
         ON CONFLICT (bucket) DO UPDATE SET tokens = excluded.tokens, at = excluded.at`,
        [bucket, tokens - give, Math.max(now, row?.at ?? now)],
      );
      if (give > 0) given.set(bucket, give);
    }
    return given;
  });
}
