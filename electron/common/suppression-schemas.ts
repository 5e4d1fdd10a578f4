// The do-not-mail list as the Suppression screen sees it: its entries a page at a time, and what adding
// some (typed, or a file's) did.
import { z } from 'zod';
import { fileRefSchema } from './file-schemas.ts';

const count = z.number().int().nonnegative();

/** A page of the list, newest first: those containing `search`. */
const suppressionQuerySchema = z.strictObject({
  search: z.string().max(320).default(''),
  offset: z.number().int().nonnegative().default(0),
  limit: z.number().int().min(1).max(500).default(100),
});

const suppressionEntrySchema = z.object({
  kind: z.enum(['address', 'domain']),
  /** The normal form it is matched in: an address lower-cased, a domain in ASCII. */
  value: z.string(),
  addedAt: z.number().int(),
  /** A file's name, "by hand", or where a bounce was read ("bounces (IMAP)"). */
  source: z.string(),
  /** Why, when Sift put it there: "bounced". */
  reason: z.string().optional(),
  /** The mail server's words that said so. */
  detail: z.string().optional(),
});
export type SuppressionEntryView = z.infer<typeof suppressionEntrySchema>;

const suppressionPageSchema = z.object({
  /** Entries matching the search. */
  total: count,
  addresses: count,
  domains: count,
  entries: z.array(suppressionEntrySchema),
});
export type SuppressionPage = z.infer<typeof suppressionPageSchema>;

const suppressionAddedSchema = z.object({
  added: count,
  /** Given again: already on the list. */
  already: count,
  /** Lines that are neither an address nor a domain, and the first few of them. */
  refused: count,
  refusedExamples: z.array(z.object({ entry: z.string(), reason: z.string() })),
});
export type SuppressionAdded = z.infer<typeof suppressionAddedSchema>;

/** The Suppression screen's calls, spread into the contract's. */
export const suppressionCalls = {
  /** A page of the do-not-mail list, newest first, those containing `search`. */
  'suppression:list': { request: suppressionQuerySchema, result: suppressionPageSchema },
  /** Adds addresses and domains typed by hand (one per entry). */
  'suppression:add': {
    request: z.strictObject({ entries: z.array(z.string().max(1000)).min(1).max(10_000) }),
    result: suppressionAddedSchema,
  },
  /** Adds a file's addresses and domains (CSV, TSV, text one per line, or a spreadsheet). */
  'suppression:import': { request: z.strictObject({ file: fileRefSchema }), result: suppressionAddedSchema },
  /** Removes entries, by the value shown. */
  'suppression:remove': {
    request: z.strictObject({ values: z.array(z.string().max(1000)).min(1).max(10_000) }),
    result: z.object({ removed: count }),
  },
  /** Forgets the whole do-not-mail list. */
  'suppression:clear': { request: z.strictObject({}), result: z.object({ removed: count }) },
};
