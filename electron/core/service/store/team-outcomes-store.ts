// A team's outcomes on Sift's own service (wire/team-outcomes.ts): what each person's Sift read back,
// kept per account mode so every Sift of the team can read what the others did. Each change (a new
// outcome, an undo, a forgotten source) takes the next number of its mode's sequence; writers take turns,
// so the numbers are committed in order and a reader paging by them misses nothing.
import type { SqlConnection } from '../../storage/sql-connection.ts';
import type { TeamOutcome } from '../../wire/team-outcomes.ts';

/** Both engines read these types alike: times are milliseconds since the epoch. */
export const teamOutcomesTable = `
  CREATE TABLE IF NOT EXISTS team_outcomes (
    mode TEXT NOT NULL,
    id TEXT NOT NULL,
    seq BIGINT NOT NULL,
    source TEXT NOT NULL,
    email TEXT NOT NULL,
    kind TEXT NOT NULL,
    reason TEXT NOT NULL,
    status TEXT,
    words TEXT,
    at BIGINT NOT NULL,
    undone_at BIGINT,
    forgotten INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (mode, id)
  );
  CREATE INDEX IF NOT EXISTS team_outcomes_by_seq ON team_outcomes (mode, seq, id);
  CREATE INDEX IF NOT EXISTS team_outcomes_by_source ON team_outcomes (mode, source);
`;

/** Writers name this to take turns (sql-connection.ts). */
const turns = { oneAtATime: 'team_outcomes' };

/** Each key mode's changes are numbered on their own (read by its index, never a scan of the table). */
const nextSeq = async (tx: SqlConnection, mode: string) =>
  Number(
    (await tx.get<{ top: number }>('SELECT COALESCE(MAX(seq), 0) AS top FROM team_outcomes WHERE mode = ?', [mode]))!
      .top,
  ) + 1;

const timeOf = (iso: string | null | undefined) => (iso ? Date.parse(iso) : null);

/**
 * Keeps outcomes new to the service, and an undo of one it has; answers how many changed. An outcome
 * of a forgotten source stays forgotten.
 */
export async function keepTeamOutcomes(db: SqlConnection, mode: string, outcomes: readonly TeamOutcome[]) {
  return db.transaction(async (tx) => {
    const seq = await nextSeq(tx, mode);
    let stored = 0;
    for (const outcome of outcomes) {
      const { changes } = await tx.run(
        `INSERT INTO team_outcomes (mode, id, seq, source, email, kind, reason, status, words, at, undone_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT (mode, id) DO UPDATE SET seq = excluded.seq, undone_at = excluded.undone_at
         WHERE team_outcomes.forgotten = 0
           AND COALESCE(team_outcomes.undone_at, -1) <> COALESCE(excluded.undone_at, -1)`,
        [
          mode,
          outcome.id,
          seq,
          outcome.source,
          outcome.email,
          outcome.kind,
          outcome.reason,
          outcome.status ?? null,
          outcome.words ?? null,
          timeOf(outcome.at),
          timeOf(outcome.undone_at),
        ],
      );
      stored += changes;
    }
    return stored;
  }, turns);
}

/** Forgets a source's outcomes for everyone: what they said is wiped, and readers are told to let them go. */
export async function forgetTeamSource(db: SqlConnection, mode: string, source: string): Promise<number> {
  return db.transaction(async (tx) => {
    const { changes } = await tx.run(
      `UPDATE team_outcomes SET forgotten = 1, seq = ?, email = '', reason = '', status = NULL, words = NULL
       WHERE mode = ? AND source = ? AND forgotten = 0`,
      [await nextSeq(tx, mode), mode, source],
    );
    return changes;
  }, turns);
}

type Row = {
  id: string;
  source: string;
  email: string;
  kind: TeamOutcome['kind'];
  reason: string;
  status: string | null;
  words: string | null;
  at: number;
  undone_at: number | null;
  forgotten: number;
  seq: number;
};

/** A page of changes after `after` (`SEQ:ID`, or '' for the start), oldest first, one more than `limit` to tell if there are more. */
export async function teamOutcomesAfter(
  db: SqlConnection,
  mode: string,
  after: { seq: number; id: string },
  limit: number,
) {
  const rows = await db.all<Row>(
    `SELECT id, source, email, kind, reason, status, words, at, undone_at, forgotten, seq FROM team_outcomes
     WHERE mode = ? AND (seq > ? OR (seq = ? AND id > ?)) ORDER BY seq, id LIMIT ?`,
    [mode, after.seq, after.seq, after.id, limit + 1],
  );
  const page = rows.slice(0, limit);
  return {
    data: page.map((row) => ({
      id: row.id,
      source: row.source,
      email: row.email,
      kind: row.kind,
      reason: row.reason,
      status: row.status,
      words: row.words,
      at: new Date(Number(row.at)).toISOString(),
      undone_at: row.undone_at === null ? null : new Date(Number(row.undone_at)).toISOString(),
      forgotten: row.forgotten === 1,
    })),
    last: page.at(-1),
    hasMore: rows.length > limit,
  };
}
