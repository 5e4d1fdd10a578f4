// What a catch-all domain's sends came to: a domain that accepts every address at RCPT may deliver to all of
// them or bounce a third later, and only the sends tell which. Each domain's bounce rate is judged by the
// Wilson score interval at 95% (z = 1.96; Wilson 1927, the interval Agresti and Coull 1998 recommend for
// small samples): it moves a score only when the whole interval is on one side of a line, so 1 bounce in 10
// sends moves nothing, 0 in 412 does, and so does 4 in 12.
//
// The lines are Amazon SES's: it asks senders to keep bounces below 2% and puts an account under review at
// 5% (docs.aws.amazon.com/ses/latest/dg/faqs-enforcement.html). A domain surely above 5% bounces enough to
// hurt a sender; one surely below 2% delivers as a good list does.
import { existsSync } from 'node:fs';
import type { CatchAllLearned } from '../../common/risk-score.ts';
import { openOutcomeStore, type OutcomeStore } from './outcome-store.ts';
import { outcomeStoreFile } from './outcome-store-schema.ts';
import { teamShareStore } from './team-share-store.ts';

/** A catch-all domain's sends and bounces, and the move they earn, if any. */
export type CatchAllEvidence = {
  domain: string;
  sent: number;
  bounced: number;
  /** When the first of these sends was. */
  since: number;
  /** How many of the sends were teammates' (team-catch-all.ts), counted in `sent`. */
  teamSent: number;
  move: CatchAllLearned;
};

const z = 1.96;
const bouncesAbove = 0.05;
const deliversBelow = 0.02;

/** The Wilson score interval of `bounced` in `sent`, at 95%. */
export function wilsonInterval(bounced: number, sent: number): { low: number; high: number } {
  if (sent === 0) return { low: 0, high: 1 };
  const rate = bounced / sent;
  const z2 = z * z;
  const centre = (rate + z2 / (2 * sent)) / (1 + z2 / sent);
  const spread = (z / (1 + z2 / sent)) * Math.sqrt((rate * (1 - rate)) / sent + z2 / (4 * sent * sent));
  return { low: Math.max(0, centre - spread), high: Math.min(1, centre + spread) };
}

/** The move a domain's sends earn: bounces surely above 5%, surely below 2%, or neither. */
export function catchAllMove(bounced: number, sent: number): CatchAllEvidence['move'] {
  const { low, high } = wilsonInterval(bounced, sent);
  if (low > bouncesAbove) return 'catch_all_bounces';
  if (high < deliversBelow) return 'catch_all_delivers';
  return null;
}

/**
 * Every catch-all domain Sift has seen sent to, with what its sends came to: this folder's own, and its
 * teammates' as the team's service last gave them.
 */
function catchAllEvidence(store: OutcomeStore): CatchAllEvidence[] {
  const team = new Map(
    teamShareStore(store.database)
      .teamCatchAll()
      .map((row) => [row.domain, row]),
  );
  const rows = store.catchAllSends().map((own) => {
    const theirs = team.get(own.domain);
    team.delete(own.domain);
    return theirs
      ? {
          domain: own.domain,
          sent: own.sent + theirs.sent,
          bounced: own.bounced + theirs.bounced,
          since: Math.min(own.since, theirs.since),
          teamSent: theirs.sent,
        }
      : { ...own, teamSent: 0 };
  });
  for (const theirs of team.values())
    rows.push({
      domain: theirs.domain,
      sent: theirs.sent,
      bounced: theirs.bounced,
      since: theirs.since,
      teamSent: theirs.sent,
    });
  return rows.map((row) => ({ ...row, move: catchAllMove(row.bounced, row.sent) }));
}

/** The catch-all domains whose sends earned a move, from the data folder's outcomes (none: never read). */
export function learnedCatchAllDomains(
  dataDir: string,
): (CatchAllEvidence & { move: NonNullable<CatchAllEvidence['move']> })[] {
  if (!existsSync(outcomeStoreFile(dataDir))) return [];
  const store = openOutcomeStore(dataDir);
  try {
    return catchAllEvidence(store).filter(
      (row): row is CatchAllEvidence & { move: NonNullable<CatchAllEvidence['move']> } => row.move !== null,
    );
  } finally {
    store.close();
  }
}
