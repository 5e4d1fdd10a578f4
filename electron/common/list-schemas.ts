// A list's numbers as the renderer and the summary file see them: the funnel and the pre-check counts.
import { z } from 'zod';
import { scoreWeightsSchema } from './score-weight-schemas.ts';

const count = z.number().int().nonnegative();

/**
 * A list's numbers on the one funnel (list-funnel.ts), each row counted once:
 * rows = no_address + bad_syntax + duplicates + suppressed + ruled + to_check, and to_check = the verdicts + unverified.
 * role, disposable and typos flag addresses to check; billed is what the service charged; cached counts
 * the verdicts reused from earlier lists (the verdict cache), not sent and not billed.
 */
/**
 * What changed since the last check: addresses of this list that had a verdict from an earlier check (the
 * verdict cache keeps them, by keyed hash) and were checked again. `earlier_checked_at`: the earliest of
 * those checks; `days`: the average time between an address's two checks.
 */
const verdictChangesSchema = z.object({
  compared: count,
  earlier_checked_at: z.string(),
  days: z.number().nonnegative(),
  was_valid: count,
  valid_to_invalid: count,
  invalid_to_valid: count,
  became_catch_all: count,
  became_unknown: count,
  unchanged: count,
});
export type VerdictChanges = z.infer<typeof verdictChangesSchema>;

export const listSummarySchema = z.object({
  rows: count,
  no_address: count,
  bad_syntax: count,
  duplicates: count,
  /** Addresses on the do-not-mail list (suppression lists): never sent, billed or kept. */
  suppressed: count,
  /** Addresses a person's rule for their domain decided: never sent or billed (absent in summaries before rules). */
  ruled: count.optional(),
  to_check: count,
  valid: count,
  invalid: count,
  catch_all: count,
  unknown: count,
  other_results: z.record(z.string(), count),
  unverified: count,
  role: count,
  disposable: count,
  typos: count,
  billed: count,
  cached: count,
  changed: verdictChangesSchema.optional(),
  /** How many addresses of each verdict scored 80+, 50-79 and below 50 (risk-score.ts), as the last export counted. */
  score_spread: z.record(z.string(), z.record(z.string(), count)).optional(),
  /** The score each kept verdict had to reach to be in the cleaned list, where one was set. */
  kept_at_score: z.record(z.string(), z.number().int().min(0).max(100)).optional(),
  /** Points that replaced the score table's for these scores (Settings, or a file); absent: Sift's own table. */
  score_weights: scoreWeightsSchema.optional(),
});
export type ListSummary = z.infer<typeof listSummarySchema>;

/** What reading the list found before anything is sent; every row is counted once. */
export const precheckCountsSchema = z.object({
  toCheck: count,
  duplicates: count,
  badSyntax: count,
  noAddress: count,
  role: count,
  disposable: count,
  suggestions: count,
  /** Addresses on the do-not-mail list (not among those to check); absent before suppression lists existed. */
  suppressed: count.optional(),
  /** The do-not-mail list's version the list was read against: one read before a change is read again. */
  suppressionVersion: count.optional(),
  /** Addresses a person's rule for their domain decided (not among those to check); absent before rules existed. */
  ruled: count.optional(),
  /** The rules' version the list was read against: one read before a change is read again. */
  rulesVersion: count.optional(),
  /** Of those to check, how many an earlier list's verdict stands for (the verdict cache); absent before it existed. */
  cached: count.optional(),
});
export type PrecheckCounts = z.infer<typeof precheckCountsSchema>;

const scoreGroupSchema = z.object({
  /** The verdict (`unverified`: not checked yet; `ruled`: a rule decided it). */
  result: z.string(),
  reason: z.string().nullable(),
  role: z.boolean(),
  disposable: z.boolean(),
  /** A typo suggestion was made; `accepted`: the person took it. */
  suggested: z.boolean(),
  accepted: z.boolean(),
  /** The verdict was reused from an earlier list. */
  cached: z.boolean(),
  free: z.boolean(),
  /** Valid at an earlier check too old to reuse. */
  validEarlier: z.boolean(),
  /** Google or Microsoft, where the service found the domain's mail hosts are theirs. */
  provider: z.string().nullable(),
  /** What sends to the domain's catch-all addresses came to. */
  learned: z.enum(['catch_all_bounces', 'catch_all_delivers']).nullable(),
  count,
});
export type ScoreGroup = z.infer<typeof scoreGroupSchema>;

/** What the results screen shows beside the verdicts: mailbox providers, the most used domains, why unknowns are. */
export const listBreakdownSchema = z.object({
  providers: z.array(z.object({ provider: z.string(), count })),
  topDomains: z.array(z.object({ domain: z.string(), count })),
  /** Unknown addresses per reason ('' where the service gave none), the most first. */
  unknownReasons: z.array(z.object({ reason: z.string(), count })),
  /** Addresses grouped by what their score and their place in the cleaned list are made of (the triage's counts). */
  scoreGroups: z.array(scoreGroupSchema),
  /** The weights to score them with (Settings'; the report: those of the last export); empty: Sift's table. */
  scoreWeights: scoreWeightsSchema,
});
export type ListBreakdown = z.infer<typeof listBreakdownSchema>;

/** The row explorer's filters that are a row's verdict, or what settled the row before checking. */
export const verdictFilters = [
  'valid',
  'invalid',
  'catch_all',
  'unknown',
  'unverified',
  'bad_syntax',
  'no_address',
  'suppressed',
  'ruled',
] as const;

/** What the row explorer can show: every row, a verdict, what was settled before checking, or a flag. */
/** The score bands a filter shows (risk-score.ts), each address once, on its first row. */
const scoreFilters = ['score_80', 'score_50', 'score_low'] as const;
const explorerFilters = ['all', ...verdictFilters, 'duplicate', 'role', 'disposable', 'typo', ...scoreFilters] as const;
export type ExplorerFilter = (typeof explorerFilters)[number];
/** Rows in the file's order, or by score (the highest or the lowest first; rows without a score last). */
const explorerSorts = ['row', 'score_high', 'score_low'] as const;
export type ExplorerSort = (typeof explorerSorts)[number];

/** A page of the row explorer: filtered and searched in main, never the whole list at once. */
export const explorerQuerySchema = z.strictObject({
  offset: z.number().int().nonnegative(),
  limit: z.number().int().min(1).max(500),
  filter: z.enum(explorerFilters).default('all'),
  search: z.string().max(200).default(''),
  sort: z.enum(explorerSorts).default('row'),
});

/** A page asked of the explorer (rows in file order unless sorted). */
export type ExplorerQuery = Omit<z.output<typeof explorerQuerySchema>, 'sort'> & { sort?: ExplorerSort };

export const explorerRowSchema = z.object({
  /** 1-based, as in the file (after its header). */
  row: count,
  /** The row's address (0: none), for accepting its typo suggestion. */
  addressId: count,
  cells: z.array(z.string()),
  result: z.string(),
  duplicate: z.boolean(),
  role: z.boolean(),
  disposable: z.boolean(),
  reason: z.string().nullable(),
  suggestion: z.string().nullable(),
  /** The suggestion was accepted: the cleaned list has it in place of what was typed. */
  accepted: z.boolean(),
  /** When the verdict, reused from an earlier list (the verdict cache), was got; null: checked for this list. */
  cachedAt: z.number().int().nullable(),
  /** When it was valid at an earlier check too old to reuse (checked again for this list); null: none. */
  earlierValidAt: z.number().int().nullable(),
  /** Its score (0-100) with the weights in use, and its reasons (`catch_all=55;role=-15`); null: none. */
  score: z.number().int().nullable(),
  scoreReasons: z.string(),
  /** What sends to the address's catch-all domain came to, where that moved its score. */
  catchAllEvidence: z.string().nullable(),
});
export type ExplorerRow = z.infer<typeof explorerRowSchema>;
