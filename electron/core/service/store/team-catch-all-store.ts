// A team's catch-all counts on Sift's own service (wire/team-outcomes.ts): per key mode, each data folder's
// sends to each catch-all domain and how many bounced, as that folder last said them; read back added up
// over every other folder, so each Sift learns a catch-all domain from the whole team's sends without
// anyone's recipients leaving their computer.
import type { SqlConnection } from '../../storage/sql-connection.ts';
import type { CatchAllCount } from '../../wire/team-outcomes.ts';

/** Both engines read these types alike: times are milliseconds since the epoch. */
export const teamCatchAllTable = `
  CREATE TABLE IF NOT EXISTS team_catch_all (
    mode TEXT NOT NULL,
    domain TEXT NOT NULL,
    origin TEXT NOT NULL,
    sent BIGINT NOT NULL,
    bounced BIGINT NOT NULL,
    since BIGINT NOT NULL,
    PRIMARY KEY (mode, domain, origin)
  );
`;

/** Keeps a folder's counts in place of what it said before (none sent: its counts go); answers how many changed. */
export async function keepCatchAllCounts(
  db: SqlConnection,
  mode: string,
  origin: string,
  counts: readonly CatchAllCount[],
): Promise<number> {
  return db.transaction(async (tx) => {
    let stored = 0;
    for (const count of counts) {
      const { changes } =
        count.sent === 0
          ? await tx.run('DELETE FROM team_catch_all WHERE mode = ? AND domain = ? AND origin = ?', [
              mode,
              count.domain,
              origin,
            ])
          : await tx.run(
              `INSERT INTO team_catch_all (mode, domain, origin, sent, bounced, since) VALUES (?, ?, ?, ?, ?, ?)
               ON CONFLICT (mode, domain, origin) DO UPDATE
               SET sent = excluded.sent, bounced = excluded.bounced, since = excluded.since`,
              [mode, count.domain, origin, count.sent, count.bounced, Date.parse(count.since)],
            );
      stored += changes;
    }
    return stored;
  });
}

type Row = {
  domain: string;
  sent: number | string;
  bounced: number | string;
  since: number | string;
  folders: number | string;
};

/** A page of every other folder's counts added up per domain, after `after` by name; one more than `limit` to tell if there are more. */
export async function teamCatchAllAfter(db: SqlConnection, mode: string, except: string, after: string, limit: number) {
  // PostgreSQL's SUM and COUNT of BIGINT come back as text: read as numbers.
  const rows = await db.all<Row>(
    `SELECT domain, SUM(sent) AS sent, SUM(bounced) AS bounced, MIN(since) AS since, COUNT(*) AS folders
     FROM team_catch_all WHERE mode = ? AND domain > ? AND origin <> ?
     GROUP BY domain ORDER BY domain LIMIT ?`,
    [mode, after, except, limit + 1],
  );
  return {
    data: rows.slice(0, limit).map((row) => ({
      domain: row.domain,
      sent: Number(row.sent),
      bounced: Number(row.bounced),
      since: new Date(Number(row.since)).toISOString(),
      folders: Number(row.folders),
    })),
    hasMore: rows.length > limit,
  };
}
