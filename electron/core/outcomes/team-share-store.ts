// The outcome store's side of sharing with a team's service (team-sharing.ts): this folder's origin, the
// outcomes the service does not have yet, the forgettings still to tell it, and the teammates' outcomes
// kept here, and the catch-all counts both ways. The tables are in outcome-store-schema.ts (versions 3 to 5);
// all of this SQL is here.
import { randomBytes } from 'node:crypto';
import { sql, transaction, type Database } from '../storage/sqlite.ts';
import type { BounceKind } from './bounce-meaning.ts';

/** An outcome the service does not have as it is now, with its id there. */
export type UnsharedOutcome = {
  id: number;
  teamId: string;
  source: string;
  address: string;
  kind: BounceKind;
  reason: string;
  status: string | null;
  words: string | null;
  at: number;
  undoneAt: number | null;
};

/** A catch-all domain's sends and how many bounced, as one folder counts them (`folders`: how many, for the team's). */
export type CatchAllCounts = { domain: string; sent: number; bounced: number; since: number };
export type TeamCatchAllCounts = CatchAllCounts & { folders: number };

const countColumns = 'domain, sent, bounced, since';

export function teamShareStore(db: Database) {
  return {
    /** What this folder last told that service of its sends to catch-all domains. */
    catchAllShared: (service: string) =>
      (sql(db, `SELECT ${countColumns} FROM catch_all_shared WHERE service = ?`).all(service) as CatchAllCounts[]).map(
        (row) => ({ ...row }),
      ),
    /** That service has these counts now (none sent: the domain is gone from what it has of ours). */
    markCatchAllShared(service: string, counts: readonly CatchAllCounts[]) {
      transaction(db, () => {
        for (const count of counts)
          if (count.sent === 0)
            sql(db, 'DELETE FROM catch_all_shared WHERE service = ? AND domain = ?').run(service, count.domain);
          else
            sql(
              db,
              `INSERT INTO catch_all_shared (service, ${countColumns}) VALUES (?, ?, ?, ?, ?)
               ON CONFLICT (service, domain) DO UPDATE
               SET sent = excluded.sent, bounced = excluded.bounced, since = excluded.since`,
            ).run(service, count.domain, count.sent, count.bounced, count.since);
      });
    },
    /** A service's team counts as a read goes: begun empty, a page at a time, then put in place of its last read whole. */
    teamCatchAllRead: (service: string) => ({
      begin: () => sql(db, 'DELETE FROM team_catch_all_next WHERE service = ?').run(service),
      page(counts: readonly TeamCatchAllCounts[]) {
        transaction(db, () => {
          // Names that differ in case only (as two folders sent them) are one domain.
          const insert = sql(
            db,
            `INSERT INTO team_catch_all_next (service, ${countColumns}, folders) VALUES (?, ?, ?, ?, ?, ?)
             ON CONFLICT (service, domain) DO UPDATE SET sent = sent + excluded.sent,
               bounced = bounced + excluded.bounced, since = min(since, excluded.since),
               folders = folders + excluded.folders`,
          );
          for (const count of counts)
            insert.run(service, count.domain, count.sent, count.bounced, count.since, count.folders);
        });
      },
      finish() {
        transaction(db, () => {
          sql(db, 'DELETE FROM team_catch_all WHERE service = ?').run(service);
          sql(db, 'INSERT INTO team_catch_all SELECT * FROM team_catch_all_next WHERE service = ?').run(service);
          sql(db, 'DELETE FROM team_catch_all_next WHERE service = ?').run(service);
        });
      },
    }),
    /** Lets a team's counts go (its source here was forgotten). */
    forgetTeamCatchAll: (service: string) => sql(db, 'DELETE FROM team_catch_all WHERE service = ?').run(service),
    /** Every other folder's counts, as the last whole reads left them, added up over the teams' services. */
    teamCatchAll: () =>
      (
        sql(
          db,
          `SELECT domain, SUM(sent) AS sent, SUM(bounced) AS bounced, MIN(since) AS since, SUM(folders) AS folders
           FROM team_catch_all GROUP BY domain`,
        ).all() as TeamCatchAllCounts[]
      ).map((row) => ({ ...row })),
    /** This data folder's own prefix on the service: what it sent, it knows as its own. Made once. */
    origin(): string {
      sql(db, "INSERT INTO meta (name, value) VALUES ('team_origin', ?) ON CONFLICT DO NOTHING").run(
        `o${randomBytes(8).toString('hex')}`,
      );
      return (sql(db, "SELECT value FROM meta WHERE name = 'team_origin'").get() as { value: string }).value;
    },
    /** Gives every source of this folder's own its id on the service (a teammates' source has none). */
    nameSources(origin: string) {
      for (const { id } of sql(db, "SELECT id FROM sources WHERE team_id IS NULL AND kind != 'team'").all() as {
        id: number;
      }[])
        sql(db, 'UPDATE sources SET team_id = ? WHERE id = ?').run(`${origin}.${randomBytes(6).toString('hex')}`, id);
    },
    /** A page of outcomes the service does not have as they are now, oldest first. */
    unshared: (limit: number) =>
      (
        sql(
          db,
          `SELECT outcomes.id, coalesce(remote, sources.team_id || '/' || outcomes.id) AS teamId,
             address, outcomes.kind, reason, status, words, at, undone_at AS undoneAt
           FROM outcomes JOIN sources ON sources.id = outcomes.source
           WHERE shared = 0 AND (remote IS NOT NULL OR sources.team_id IS NOT NULL)
           ORDER BY outcomes.id LIMIT ?`,
        ).all(limit) as Omit<UnsharedOutcome, 'source'>[]
      ).map((row) => ({ ...row, source: row.teamId.slice(0, row.teamId.lastIndexOf('/')) })),
    /** The service has these as they were sent (an undo since is sent next time). */
    markShared(sent: readonly Pick<UnsharedOutcome, 'id' | 'undoneAt'>[]) {
      transaction(db, () => {
        for (const outcome of sent)
          sql(db, 'UPDATE outcomes SET shared = 1 WHERE id = ? AND coalesce(undone_at, 0) = ?').run(
            outcome.id,
            outcome.undoneAt ?? 0,
          );
      });
    },
    pendingForgets: () =>
      (sql(db, 'SELECT team_id AS teamId FROM team_forgets').all() as { teamId: string }[]).map((row) => row.teamId),
    forgetTold: (teamId: string) => sql(db, 'DELETE FROM team_forgets WHERE team_id = ?').run(teamId),
    /** The local outcome a service id stands for: a teammate's by its id there, one of ours by source and number. */
    localOf(teamId: string): { id: number; undoneAt: number | null } | undefined {
      type Local = { id: number; undoneAt: number | null };
      const slash = teamId.lastIndexOf('/');
      // Two lookups by index, not one OR across the join, which would scan every outcome.
      const theirs = sql(db, 'SELECT id, undone_at AS undoneAt FROM outcomes WHERE remote = ?').get(teamId);
      const ours = () =>
        sql(
          db,
          `SELECT outcomes.id, undone_at AS undoneAt FROM outcomes JOIN sources ON sources.id = outcomes.source
           WHERE outcomes.id = ? AND sources.team_id = ?`,
        ).get(Number(teamId.slice(slash + 1)) || -1, teamId.slice(0, slash));
      const found = (theirs ?? ours()) as Local | undefined;
      return found && { ...found };
    },
    /**
     * Lets teammates' outcomes go (their source was forgotten); answers how many were here, and the
     * hard-bounced addresses among them that no other standing hard bounce holds.
     */
    removeRemote(teamIds: readonly string[]): { removed: number; hard: { address: string; key: string }[] } {
      if (teamIds.length === 0) return { removed: 0, hard: [] };
      return transaction(db, () => {
        const ids = JSON.stringify(teamIds);
        const hard = sql(
          db,
          `SELECT DISTINCT address, key FROM outcomes AS gone WHERE kind = 'hard' AND undone_at IS NULL
             AND remote IN (SELECT value FROM json_each(?))
             AND NOT EXISTS (SELECT 1 FROM outcomes AS other WHERE other.address = gone.address AND other.kind = 'hard'
               AND other.undone_at IS NULL AND (other.remote IS NULL OR other.remote NOT IN (SELECT value FROM json_each(?))))`,
        ).all(ids, ids) as { address: string; key: string }[];
        const { changes } = sql(db, 'DELETE FROM outcomes WHERE remote IN (SELECT value FROM json_each(?))').run(ids);
        return { removed: Number(changes), hard: hard.map((row) => ({ ...row })) };
      });
    },
  };
}
