// A score from 0 to 100 for every checked address, with its reasons: built only from what Sift knows of
// it (the verdict and its reason, role, disposable, a likely typo, a verdict reused from an earlier list)
// in one table kept as data, each line with why it is there. The same facts always give the same score.
// These are Sift's own numbers, beside the service's verdicts; what they cannot know (whether anyone reads
// the mailbox, spam traps) no score can.

/** Each reason: its points, and the line that says why. */
export type ScoreLine = { points: number; why: string };

/** Where a verdict starts, before the facts that move it. */
export const scoreStarts: Record<string, ScoreLine> = {
  valid: { points: 90, why: 'The mail server accepted the address: it should receive mail.' },
  catch_all: {
    points: 55,
    why: 'The domain accepts every address, so this one could not be confirmed; many such addresses are real.',
  },
  unknown: { points: 40, why: 'No answer either way: the address may exist.' },
  unverified: { points: 30, why: 'Not checked yet.' },
  invalid: { points: 0, why: 'The mail server refused the address: mail to it bounces.' },
  bad_syntax: { points: 0, why: 'Not an email address.' },
  suppressed: { points: 0, why: 'On the do-not-mail list.' },
};

/** What moves a score from its start, each once. */
export const scoreMoves: Record<string, ScoreLine> = {
  role: { points: -15, why: 'A role address (info@, sales@) reaches a team, often a filter, rarely one reader.' },
  disposable: { points: -45, why: 'A disposable inbox is gone within days.' },
  typo: { points: -30, why: 'Likely a typo of a common domain: the person probably meant another address.' },
  mailbox_full: {
    points: -25,
    why: 'The mailbox is full: mail bounces until it is emptied, and full ones are often left.',
  },
  greylisted: { points: 10, why: 'The server asked to retry later, as real mail servers guarding real mailboxes do.' },
  timeout: { points: -5, why: 'The mail server did not answer in time: it may be overloaded or gone.' },
  reused: { points: -5, why: 'The verdict is reused from an earlier list, not asked today.' },
};

export type ScoreFacts = {
  result: string;
  reason: string | null;
  role: boolean;
  disposable: boolean;
  /** A typo suggestion the person did not accept. */
  typo: boolean;
  /** The verdict came from the verdict cache. */
  reused: boolean;
};

export type ScoreWeights = { starts?: Record<string, number>; moves?: Record<string, number> };

export type AddressScore = { score: number; reasons: string };

/** A score and its reasons (`catch_all=55;role=-15`), from `facts` and the table (or weights given instead). */
export function scoreAddress(facts: ScoreFacts, weights: ScoreWeights = {}): AddressScore {
  const parts: string[] = [];
  const score = tally(facts, weights, (name, points) => parts.push(`${name}=${points}`));
  return { score, reasons: parts.join(';') };
}

/** The score alone: what a threshold or a spread needs, for every address of a list. */
export const scoreValue = (facts: ScoreFacts, weights: ScoreWeights = {}) => tally(facts, weights);

function tally(facts: ScoreFacts, weights: ScoreWeights, said?: (name: string, points: number) => void): number {
  const start = weights.starts?.[facts.result] ?? scoreStarts[facts.result]?.points ?? scoreStarts.unknown!.points;
  said?.(facts.result, start);
  let score = start;
  const move = (name: string) => {
    const points = weights.moves?.[name] ?? scoreMoves[name]!.points;
    score += points;
    said?.(name, points);
  };
  // A verdict that rules the address out is not moved by anything: it stays where it starts.
  if (start > 0) {
    if (facts.role) move('role');
    if (facts.disposable) move('disposable');
    if (facts.typo) move('typo');
    if (facts.reason === 'mailbox_full') move('mailbox_full');
    if (facts.reason === 'greylisted') move('greylisted');
    if (facts.reason === 'timeout') move('timeout');
    if (facts.reused) move('reused');
  }
  return Math.max(0, Math.min(100, score));
}

/** The bands a spread is counted in, as the results screen and the summary show them. */
const scoreBands = [
  { name: '80+', from: 80 },
  { name: '50-79', from: 50 },
  { name: '<50', from: 0 },
] as const;

export const bandOf = (score: number) => scoreBands.find((band) => score >= band.from)!.name;
