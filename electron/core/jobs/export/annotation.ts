// The sift_* columns the annotated file adds to each row, encoded once and reused: as text, once per
// address (a first occurrence and a repeat differ only in billed and duplicate); as bytes, once per
// result, reason and flags when there is no suggestion.
import { ruleActionOf } from '../../../common/domain-rules.ts';
import { badSyntaxResult, noAddressResult, suppressedResult, unverifiedResult } from '../../../common/list-funnel.ts';
import { verdictNote } from '../../../common/reason-words.ts';
import {
  scoreAddress,
  scoreFactsOfAddress,
  type AddressScore,
  type ScoreFacts,
  type ScoreWeights,
} from '../../../common/risk-score.ts';
import { verdictFlag, type VerdictColumns } from '../store/index.ts';
import { column, hasFlag, type RowVerdict } from './row-verdicts.ts';

export const annotationColumns = [
  'sift_result',
  'sift_billed',
  'sift_duplicate',
  'sift_role',
  'sift_disposable',
  'sift_reason',
  'sift_reason_text',
  'sift_suggestion',
  'sift_suggestion_accepted',
  'sift_source',
  'sift_cached_on',
  'sift_score',
  'sift_score_reasons',
] as const;

/** What risk-score.ts scores an address by, from its columns; none for one not checked, or a rule's. */
export const scoreFactsOf = (address: VerdictColumns): ScoreFacts | undefined =>
  scoreFactsOfAddress({
    result: address[column.result],
    reason: address[column.reason],
    role: hasFlag(address, 'role'),
    disposable: hasFlag(address, 'disposable'),
    suggested: address[column.suggestion] !== null,
    accepted: hasFlag(address, 'accepted'),
    cached: hasFlag(address, 'cached'),
    free: hasFlag(address, 'free'),
    provider: hasFlag(address, 'google') ? 'Google' : hasFlag(address, 'microsoft') ? 'Microsoft' : null,
    validEarlier: hasFlag(address, 'validEarlier'),
    learned: hasFlag(address, 'catchAllBounces')
      ? 'catch_all_bounces'
      : hasFlag(address, 'catchAllDelivers')
        ? 'catch_all_delivers'
        : null,
  });

const scoreOfAddress = (address: VerdictColumns, weights: ScoreWeights): AddressScore | undefined => {
  const facts = scoreFactsOf(address);
  return facts && scoreAddress(facts, weights);
};

/**
 * Where a row's verdict came from: `checked` (asked of the service for this list; `sift_cached_on` is the
 * day of an earlier valid check, where there was one), `cache` (an earlier list's verdict, reused;
 * `sift_cached_on` says when it was got), `demo` (a sandbox key's script), `precheck` (Sift settled it: bad
 * syntax, no address), `suppression` (on the do-not-mail list), `rule` (a person's rule for its domain
 * decided it), or nothing (not checked).
 */
const sourceOf = (address: VerdictColumns | null, demo: boolean): string => {
  if (!address) return 'precheck';
  const result = address[column.result];
  if (result === null) return '';
  if (result === badSyntaxResult) return 'precheck';
  if (result === suppressedResult) return 'suppression';
  if (ruleActionOf(address[column.reason])) return 'rule';
  if (hasFlag(address, 'cached')) return 'cache';
  return demo ? 'demo' : 'checked';
};

/** The verdict shown for an address: its result, or `unverified` when the job ended before it was checked. */
export const resultOf = (address: VerdictColumns) => address[column.result] ?? unverifiedResult;

/**
 * Whether a row counts as a duplicate on the funnel: a repeat of an address to check. A repeat of bad
 * syntax stays bad syntax (the funnel counts it there, once per row).
 */
const isFunnelDuplicate = (verdict: RowVerdict) =>
  verdict.duplicate && verdict.address !== null && verdict.address[column.result] !== badSyntaxResult;

/** The verdicts are a sandbox key's demo verdicts (their reasons say so); the score's weights, if not Sift's. */
type AnnotationOptions = { demo?: boolean | undefined; weights?: ScoreWeights | undefined };

/** An address's columns with its two annotations (first occurrence, repeat) kept beside them once written. */
type Annotated = VerdictColumns & { 5?: string; 6?: string };

/**
 * The sift_* cells of a row as text, `before` and `after` around them; `cell` writes one cell as the
 * file writes it. true and false need no quotes or guard, so only the words from the service go to `cell`.
 */
function tailEncoder(
  cell: (value: string) => string,
  delimiter: string,
  before: string,
  after: string,
  { demo = false, weights = {} }: AnnotationOptions,
) {
  const d = delimiter;
  /** A service's reason; a demo verdict's says it is one (Sift's own syntax check and suppression are not demos). */
  const reasonOf = (address: VerdictColumns) => {
    const reason = address[column.reason];
    const result = address[column.result];
    if (!demo || result === null || result === badSyntaxResult || result === suppressedResult) return reason;
    if (ruleActionOf(reason)) return reason;
    return reason ? `${demoReasonPrefix}${reason}` : demoReasonPrefix.slice(0, -1);
  };
  const flagsOf = (billed: boolean, duplicate: boolean, role: boolean, disposable: boolean) =>
    `${billed}${d}${duplicate}${d}${role}${d}${disposable}`;
  /** The reason in a sentence, as the app says it; a demo verdict's says it is one. */
  const textOf = (address: VerdictColumns) =>
    verdictNote({ result: resultOf(address), reason: address[column.reason] }, demo);
  const noAddressTail =
    `${before}${cell(noAddressResult)}${d}${flagsOf(false, false, false, false)}${d}${d}${d}${d}false` +
    `${d}${sourceOf(null, demo)}${d}${d}${d}${after}`;
  return (address: VerdictColumns | null, billed: boolean, duplicate: boolean) => {
    if (!address) return noAddressTail;
    const reason = reasonOf(address);
    const text = textOf(address);
    const suggestion = address[column.suggestion];
    const flags = flagsOf(billed, duplicate, hasFlag(address, 'role'), hasFlag(address, 'disposable'));
    const score = scoreOfAddress(address, weights);
    return (
      `${before}${cell(resultOf(address))}${d}${flags}${d}${reason ? cell(reason) : ''}${d}${text ? cell(text) : ''}` +
      `${d}${suggestion ? cell(suggestion) : ''}${d}${hasFlag(address, 'accepted')}` +
      `${d}${sourceOf(address, demo)}${d}${address[column.cachedOn] ?? ''}` +
      `${d}${score?.score ?? ''}${d}${score?.reasons ?? ''}${after}`
    );
  };
}

/** How a demo verdict's reason reads in the annotated file: `demo:accepted_email`, or `demo` alone. */
const demoReasonPrefix = 'demo:';

/** The annotation of a row as text, kept on the address's own array once written. */
export function annotationWriter(cell: (value: string) => string, delimiter: string, options: AnnotationOptions = {}) {
  const encode = tailEncoder(cell, delimiter, '', '', options);
  return (verdict: RowVerdict): string => {
    const address = verdict.address as Annotated | null;
    if (!address) return encode(null, false, false);
    // A credit is spent once per address: on its first row, not on its duplicates.
    if (isFunnelDuplicate(verdict)) return (address[6] ??= encode(address, false, true));
    return (address[5] ??= encode(address, hasFlag(address, 'billed'), false));
  };
}

/** Distinct (result, reason, day) triples whose tails are kept; a service naming more is encoded row by row. */
const maxSharedTails = 1000;

/**
 * The annotation of a row as bytes, from its delimiter to its line break. Tails without a suggestion
 * are shared by every address with the same result, reason and flags: a list has a few dozen of them.
 */
export function annotationBytesWriter(
  cell: (value: string) => string,
  delimiter: string,
  options: AnnotationOptions = {},
) {
  const encode = tailEncoder(cell, delimiter, delimiter, '\r\n', options);
  const noAddressTail = Buffer.from(encode(null, false, false));
  const shared = new Map<string | null, Map<string | null, (Buffer | undefined)[]>>();
  let sharedPairs = 0;
  // Every flag the tail shows or the score reads (billed is its own bit of the slot).
  const flagBits =
    verdictFlag.role |
    verdictFlag.disposable |
    verdictFlag.accepted |
    verdictFlag.cached |
    verdictFlag.free |
    verdictFlag.google |
    verdictFlag.microsoft |
    verdictFlag.validEarlier |
    verdictFlag.catchAllBounces |
    verdictFlag.catchAllDelivers;
  return (verdict: RowVerdict): Buffer => {
    const address = verdict.address;
    if (!address) return noAddressTail;
    const duplicate = isFunnelDuplicate(verdict);
    const billed = !duplicate && hasFlag(address, 'billed');
    if (address[column.suggestion] !== null) return Buffer.from(encode(address, billed, duplicate));
    const result = address[column.result];
    // The day a reused verdict was got is part of its tail; a reason never holds a NUL.
    const cachedOn = address[column.cachedOn];
    const reason = cachedOn === null ? address[column.reason] : `${address[column.reason] ?? ''}\0${cachedOn}`;
    let byReason = shared.get(result);
    let tails = byReason?.get(reason);
    if (!tails) {
      if (sharedPairs >= maxSharedTails) return Buffer.from(encode(address, billed, duplicate));
      if (!byReason) shared.set(result, (byReason = new Map()));
      byReason.set(reason, (tails = []));
      sharedPairs += 1;
    }
    const slot = ((address[column.flags] & flagBits) << 2) | (billed ? 1 : 0) | (duplicate ? 2 : 0);
    return (tails[slot] ??= Buffer.from(encode(address, billed, duplicate)));
  };
}
