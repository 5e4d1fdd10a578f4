// A list's numbers as the renderer and the summary file see them: the funnel and the pre-check counts.
import { z } from 'zod';

const count = z.number().int().nonnegative();

/**
 * A list's numbers on the one funnel (list-funnel.ts), each row counted once:
 * rows = no_address + bad_syntax + duplicates + suppressed + to_check, and to_check = the verdicts + unverified.
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
  /** Of those to check, how many an earlier list's verdict stands for (the verdict cache); absent before it existed. */
  cached: count.optional(),
});
export type PrecheckCounts = z.infer<typeof precheckCountsSchema>;

/** What the results screen shows beside the verdicts: mailbox providers, the most used domains, why unknowns are. */
export const listBreakdownSchema = z.object({
  providers: z.array(z.object({ provider: z.string(), count })),
  topDomains: z.array(z.object({ domain: z.string(), count })),
  /** Unknown addresses per reason ('' where the service gave none), the most first. */
  unknownReasons: z.array(z.object({ reason: z.string(), count })),
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
] as const;

/** What the row explorer can show: every row, a verdict, what was settled before checking, or a flag. */
const explorerFilters = ['all', ...verdictFilters, 'duplicate', 'role', 'disposable', 'typo'] as const;
export type ExplorerFilter = (typeof explorerFilters)[number];

/** A page of the row explorer: filtered and searched in main, never the whole list at once. */
export const explorerQuerySchema = z.strictObject({
  offset: z.number().int().nonnegative(),
  limit: z.number().int().min(1).max(500),
  filter: z.enum(explorerFilters).default('all'),
  search: z.string().max(200).default(''),
});

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
});
export type ExplorerRow = z.infer<typeof explorerRowSchema>;
