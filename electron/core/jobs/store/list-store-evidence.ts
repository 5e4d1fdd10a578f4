// What sends to catch-all domains had come to when a list was checked (outcomes' catch-all-evidence.ts),
// kept with the list: its scores move by that evidence (score-columns.ts), the same each time they are
// read, and a row's reason can say the numbers behind it.
import { sql, transaction, type Database } from '../../storage/sqlite.ts';
import type { CatchAllLearned } from '../../../common/risk-score.ts';

/** A catch-all domain's sends and hard bounces, as they stood when the list was checked. */
type DomainEvidence = {
  domain: string;
  sent: number;
  bounced: number;
  since: number;
  /** How many of the sends were teammates' (shared through a team's service). */
  teamSent: number;
  move: Exclude<CatchAllLearned, null>;
};

export type CatchAllEvidenceStore = {
  /** Keeps `rows` in place of what was kept before. */
  keep(rows: readonly DomainEvidence[]): void;
  /** The evidence kept for `domain`, if its sends earned a move. */
  of(domain: string): DomainEvidence | undefined;
};

export function catchAllEvidenceStore(db: Database): CatchAllEvidenceStore {
  return {
    keep(rows) {
      transaction(db, () => {
        sql(db, 'DELETE FROM catch_all_evidence').run();
        const insert = sql(
          db,
          'INSERT INTO catch_all_evidence (domain, sent, bounced, since, team_sent, move) VALUES (?, ?, ?, ?, ?, ?)',
        );
        for (const row of rows) insert.run(row.domain, row.sent, row.bounced, row.since, row.teamSent, row.move);
      });
    },
    of: (domain) => {
      const row = sql(
        db,
        'SELECT domain, sent, bounced, since, team_sent AS teamSent, move FROM catch_all_evidence WHERE domain = ?',
      ).get(domain) as DomainEvidence | undefined;
      return row && { ...row };
    },
  };
}
