// A score from 0 to 100 for every checked address, with its reasons: built only from what Sift knows of
// it (the verdict and its reason, role, disposable, a likely typo, a verdict reused from an earlier list,
// a free mailbox, whose mail hosts a catch-all domain uses, what mail to the domain's catch-all addresses
// came to)
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
  free: {
    points: -5,
    why: "A free mailbox (Gmail, Outlook.com, Yahoo…): a person's own, not a company's, and more often left unread.",
  },
  // Google Workspace: a catch-all is an admin's routing rule that delivers mail for unknown names to a
  // mailbox they chose (support.google.com/a/answer/33962).
  catch_all_google: {
    points: 10,
    why: 'A catch-all at Google Workspace: an admin routes mail for unknown names to a mailbox of their choosing.',
  },
  // Microsoft 365 refuses unknown names itself (Directory-Based Edge Blocking) unless the domain relays
  // mail on to another system, which may bounce it later (learn.microsoft.com, "Use Directory-Based Edge
  // Blocking to reject messages sent to invalid recipients").
  valid_earlier: {
    points: 10,
    why: 'Valid at an earlier check (a verdict kept from an earlier list, too old to reuse): the mailbox existed then.',
  },
  catch_all_microsoft: {
    points: -10,
    why: 'A catch-all at Microsoft 365 relays mail for names it does not know on to another server, which may bounce it.',
  },
  // Yahoo/AOL and Mail.ru accept every recipient at RCPT and bounce unknown ones after the message
  // (accept-all-providers.ts has the sources): their "catch-all" proves nothing about the address.
  accept_all_provider: {
    points: -10,
    why: 'Yahoo/AOL and Mail.ru accept every address when asked and bounce unknown ones later: the check proved nothing.',
  },
  // What mail sent to the domain's catch-all addresses came to, when Sift read it back (outcomes'
  // catch-all-evidence.ts: a Wilson bound against Amazon SES's 5% and 2%).
  catch_all_bounces: {
    points: -25,
    why: "Mail to this catch-all domain's addresses bounced more than 1 time in 20, with enough sends to be sure.",
  },
  catch_all_delivers: {
    points: 15,
    why: "Mail to this catch-all domain's addresses bounced less than 1 time in 50, with enough sends to be sure.",
  },
};

/** What a catch-all domain's sends came to, where Sift read them back: the move it earned. */
export type CatchAllLearned = 'catch_all_bounces' | 'catch_all_delivers' | null;

export type ScoreFacts = {
  result: string;
  reason: string | null;
  role: boolean;
  disposable: boolean;
  /** A typo suggestion the person did not accept. */
  typo: boolean;
  /** The verdict came from the verdict cache. */
  reused: boolean;
  /** The domain is a free mailbox provider's. */
  free: boolean;
  /** Who runs the domain's mail hosts, where the service said (Google, Microsoft...). */
  provider: string | null;
  /** Valid at an earlier check too old to reuse (checked again for this list). */
  validEarlier: boolean;
  /** What sends to the domain's catch-all addresses came to (none: not known, or not enough). */
  learned: CatchAllLearned;
};

export type ScoreWeights = { starts?: Partial<Record<string, number>>; moves?: Partial<Record<string, number>> };

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
    else if (facts.validEarlier) move('valid_earlier');
    if (facts.free) move('free');
    if (facts.result === 'catch_all' && facts.provider === 'Google') move('catch_all_google');
    if (facts.result === 'catch_all' && facts.provider === 'Microsoft') move('catch_all_microsoft');
    else if (facts.result === 'catch_all' && facts.reason === 'accept_all_provider') move('accept_all_provider');
    if (facts.result === 'catch_all' && facts.learned) move(facts.learned);
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

/** An address as the explorer, the results screen and the export hold it. */
export type ScoredAddress = {
  result: string | null;
  reason: string | null;
  role: boolean;
  disposable: boolean;
  suggested: boolean;
  accepted: boolean;
  cached: boolean;
  free: boolean;
  provider: string | null;
  validEarlier: boolean;
  learned: CatchAllLearned;
};

/** What the score is made of, or none: not checked yet, or kept, left out or skipped by a rule. */
export function scoreFactsOfAddress(address: ScoredAddress): ScoreFacts | undefined {
  const { result } = address;
  if (result === null || result === 'unverified' || result === 'ruled') return undefined;
  return {
    result,
    reason: address.reason,
    role: address.role,
    disposable: address.disposable,
    typo: address.suggested && !address.accepted,
    reused: address.cached,
    free: address.free,
    provider: address.provider,
    validEarlier: address.validEarlier,
    learned: address.learned,
  };
}
