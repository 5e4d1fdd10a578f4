// The do-not-mail list as the Suppression screen sees it: its entries a page at a time, and what adding
// some (typed, or a file's) did.
import { z } from 'zod';

const count = z.number().int().nonnegative();

/** A page of the list, newest first: those containing `search`. */
export const suppressionQuerySchema = z.strictObject({
  search: z.string().max(320).default(''),
  offset: z.number().int().nonnegative().default(0),
  limit: z.number().int().min(1).max(500).default(100),
});

const suppressionEntrySchema = z.object({
  kind: z.enum(['address', 'domain']),
  /** The normal form it is matched in: an address lower-cased, a domain in ASCII. */
  value: z.string(),
  addedAt: z.number().int(),
  /** A file's name, or "by hand". */
  source: z.string(),
});
export type SuppressionEntryView = z.infer<typeof suppressionEntrySchema>;

export const suppressionPageSchema = z.object({
  /** Entries matching the search. */
  total: count,
  addresses: count,
  domains: count,
  entries: z.array(suppressionEntrySchema),
});
export type SuppressionPage = z.infer<typeof suppressionPageSchema>;

export const suppressionAddedSchema = z.object({
  added: count,
  /** Given again: already on the list. */
  already: count,
  /** Lines that are neither an address nor a domain, and the first few of them. */
  refused: count,
  refusedExamples: z.array(z.object({ entry: z.string(), reason: z.string() })),
});
export type SuppressionAdded = z.infer<typeof suppressionAddedSchema>;
