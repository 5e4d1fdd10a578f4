// What happened after a send, as History's "What happened" panel sees it: the accuracy ledger (of the
// addresses Sift checked live, by its verdict, how many were sent to and how many bounced since), where
// outcomes came from, and a bounce export brought in from a file.
import { z } from 'zod';
import { fileRefSchema } from './file-schemas.ts';
import { jobIdSchema } from './job-schemas.ts';

const count = z.number().int().nonnegative();

const ledgerRowSchema = z.object({
  result: z.string(),
  checked: count,
  sent: count,
  hard: count,
  soft: count,
  /** Bounces that blamed the sender, not the mailbox. */
  refused: count,
});

const outcomeLedgerSchema = z.object({
  /** "Of 12,400 addresses Sift called valid, 31 bounced (0.25%); …" */
  sentence: z.string(),
  byVerdict: z.array(ledgerRowSchema),
  /** By the UTC day of the check (YYYY-MM-DD). */
  rows: z.array(ledgerRowSchema.extend({ day: z.string() })),
  /** Outcomes of addresses Sift never checked live. */
  unchecked: z.object({ hard: count, soft: count, refused: count }),
  /** Whether any source said who it sent to (Mailchimp's campaign reports do; a bounce mailbox does not). */
  sendsKnown: z.boolean(),
  sources: z.array(z.object({ name: z.string(), kind: z.string(), readAt: z.number().int().nullable() })),
});
export type OutcomeLedger = z.infer<typeof outcomeLedgerSchema>;

/** One list's addresses and what happened to them after its check (empty when nothing was read back). */
const listOutcomesSchema = z.object({
  /** When the list's verdicts were got: outcomes since count. */
  checkedAt: z.number().int(),
  sentence: z.string(),
  byVerdict: z.array(ledgerRowSchema),
});
export type ListOutcomes = z.infer<typeof listOutcomesSchema>;

const outcomeImportSchema = z.object({
  rows: count,
  hard: count,
  soft: count,
  /** "Hard" rows whose words blame the sender: kept, never put on the do-not-mail list. */
  sender: count,
  /** Rows that are no bounce (a complaint, an unsubscribe). */
  other: count,
  refused: count,
  suppressed: count,
  examples: z.array(z.string()),
  datedBy: z.enum(['column', 'file']),
});
export type OutcomeImport = z.infer<typeof outcomeImportSchema>;

/** History's outcome calls, spread into the contract's. */
export const outcomeCalls = {
  'outcomes:ledger': { request: z.strictObject({}), result: outcomeLedgerSchema },
  /** What happened to one list's addresses after it was checked (the results screen). */
  'outcomes:forList': {
    request: z.strictObject({ jobId: jobIdSchema }),
    result: listOutcomesSchema,
  },
  /** A bounce or suppression export (CSV, TSV, workbook); `kind` says what every row is when no column does. */
  'outcomes:import': {
    request: z.strictObject({ file: fileRefSchema, kind: z.enum(['hard', 'soft']).optional() }),
    result: outcomeImportSchema,
  },
};
