// What the row explorer knows of each address of a list, in typed arrays indexed by address id (a million
// addresses in a few megabytes): its verdict, flags, first row and score; and whether a row is one a
// filter shows.
import type { ExplorerFilter } from '../../../common/contract.ts';
import { badSyntaxResult, noAddressResult, ruledResult, suppressedResult } from '../../../common/list-funnel.ts';
import { scoreFactsOfAddress, scoreValue, type ScoreWeights } from '../../../common/risk-score.ts';
import type { AddressFacts, JobRecord, ListStore } from '../store/index.ts';

const verdictCodes = [
  '',
  'valid',
  'invalid',
  'catch_all',
  'unknown',
  badSyntaxResult,
  suppressedResult,
  ruledResult,
] as const;
/** The code of a verdict the service named that Sift does not. */
const otherCode = verdictCodes.length;
const flag = { role: 1, disposable: 2, typo: 4 } as const;

/** Per address id: its verdict's code, its flags, its first row, and its score (`noScore`: none). */
export type Facts = { code: Uint8Array; flags: Uint8Array; firstRow: Int32Array; score: Uint8Array };
export const noScore = 255;

/** What an address's score is made of, from its stored facts; none for one not checked, or a rule's. */
export const storedScoreFacts = (address: AddressFacts) =>
  scoreFactsOfAddress({
    result: address.result,
    reason: address.reason,
    role: address.role === 1,
    disposable: address.disposable === 1,
    suggested: address.suggestion !== null,
    accepted: address.accepted === 1,
    cached: address.cached_at !== null,
    free: address.free === 1,
    provider: address.provider,
    validEarlier: address.earlier_valid_at !== null,
    learned: address.learned,
  });

/** Every address's facts, from the list's verdicts (one pass), scored with `weights`. */
export function addressFacts(job: JobRecord, text: ReturnType<ListStore['rowText']>, weights: ScoreWeights): Facts {
  const size = job.precheck
    ? job.precheck.toCheck + job.precheck.badSyntax + (job.precheck.suppressed ?? 0) + (job.precheck.ruled ?? 0) + 1
    : 1;
  // Ids run from 1 to the number of distinct addresses, which the pre-check counts bound.
  const facts: Facts = {
    code: new Uint8Array(size),
    flags: new Uint8Array(size),
    firstRow: new Int32Array(size),
    score: new Uint8Array(size).fill(noScore),
  };
  for (const address of text.allFacts()) {
    if (address.id >= size) continue;
    const code = verdictCodes.indexOf((address.result ?? '') as (typeof verdictCodes)[number]);
    facts.code[address.id] = code === -1 ? otherCode : code;
    facts.flags[address.id] =
      (address.role ? flag.role : 0) |
      (address.disposable ? flag.disposable : 0) |
      (address.suggestion ? flag.typo : 0);
    facts.firstRow[address.id] = address.first_row;
    const scored = storedScoreFacts(address);
    if (scored) facts.score[address.id] = scoreValue(scored, weights);
  }
  return facts;
}

/** Whether a row is one a filter shows; verdicts and flags count an address once, on its first row. */
export function shows(filter: ExplorerFilter, facts: Facts, id: number, row: number): boolean {
  if (filter === 'all') return true;
  if (id === 0) return filter === noAddressResult;
  const code = facts.code[id]!;
  if (filter === badSyntaxResult) return code === 5;
  const first = facts.firstRow[id] === row;
  if (filter === 'duplicate') return !first && code !== 5;
  if (!first || code === 5) return false;
  if (filter === 'role' || filter === 'disposable' || filter === 'typo') return (facts.flags[id]! & flag[filter]) !== 0;
  if (filter === 'unverified') return code === 0;
  const score = facts.score[id]!;
  if (filter === 'score_80') return score !== noScore && score >= 80;
  if (filter === 'score_50') return score >= 50 && score < 80;
  if (filter === 'score_low') return score < 50;
  return verdictCodes[code] === filter;
}
