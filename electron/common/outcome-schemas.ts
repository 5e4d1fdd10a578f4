// What happened after a send, as History's "What happened" panel sees it: the accuracy ledger (of the
// addresses Sift checked live, by its verdict, how many were sent to and how many bounced since), where
// outcomes came from, and a bounce export brought in from a file.
import { z } from 'zod';
import { connectionNameSchema } from './connector-schemas.ts';
import { fileRefSchema } from './file-schemas.ts';
import { exportFileSchema, jobIdSchema } from './job-schemas.ts';

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
  /** The team's service outcomes may be shared with (the hosted service in use), by its host; none with Sift's own. */
  team: z.string().optional(),
  /** When outcomes were last shared with it; once they have been, reads, imports and forgettings share by themselves. */
  teamSharedAt: z.number().int().optional(),
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

/** A bounce mailbox as the app shows it: where it is and who reads it, never its password. */
const mailboxViewSchema = z.object({
  name: z.string(),
  host: z.string(),
  port: z.number().int(),
  tls: z.boolean(),
  user: z.string(),
  folder: z.string(),
  readAt: z.number().int().nullable(),
});
export type MailboxView = z.infer<typeof mailboxViewSchema>;

const mailboxReadSchema = z.object({
  read: count,
  bounces: count,
  others: count,
  tooLarge: count,
  hard: count,
  soft: count,
  refused: count,
  suppressed: count,
});

/** History's outcome calls, spread into the contract's. */
export const outcomeCalls = {
  'outcomes:ledger': { request: z.strictObject({}), result: outcomeLedgerSchema },
  /** Every outcome into a CSV the person can take anywhere (what `sift outcomes export` writes). */
  'outcomes:export': { request: z.strictObject({}), result: exportFileSchema },
  /** What happened to one list's addresses after it was checked (the results screen). */
  'outcomes:forList': {
    request: z.strictObject({ jobId: jobIdSchema }),
    result: listOutcomesSchema,
  },
  'outcomes:mailboxes': { request: z.strictObject({}), result: z.array(mailboxViewSchema) },
  /**
   * Connects a bounce mailbox: the password tried there and then (one login, a look at the folder) and kept
   * in main's vault, never sent back; IMAP over TLS unless `plain`, which is for this computer only.
   */
  'outcomes:connectMailbox': {
    request: z.strictObject({
      name: connectionNameSchema,
      host: z.string().trim().min(1).max(253),
      port: z.number().int().min(1).max(65535).optional(),
      user: z.string().trim().min(1).max(320),
      password: z.string().min(1).max(1024),
      folder: z.string().trim().min(1).max(200).default('INBOX'),
      plain: z.boolean().default(false),
    }),
    result: z.array(mailboxViewSchema),
  },
  /** Reads what is new in a bounce mailbox since the last read; bounces are moved to Sift's folder. */
  'outcomes:readMailbox': { request: z.strictObject({ name: connectionNameSchema }), result: mailboxReadSchema },
  /** Forgets a mailbox and its password (what was read from it stays, until its source is forgotten). */
  'outcomes:removeMailbox': {
    request: z.strictObject({ name: connectionNameSchema }),
    result: z.array(mailboxViewSchema),
  },
  /**
   * Forgets every outcome read from a source (its name as the ledger lists it), and the do-not-mail entries
   * its bounces made (never one a person added); answers how many of each.
   */
  'outcomes:forget': {
    request: z.strictObject({ name: z.string().trim().min(1).max(400) }),
    result: z.object({ outcomes: count, unsuppressed: count }),
  },
  /**
   * Shares with the team's service (the hosted service in use, where it keeps outcomes): what was read here
   * is sent, what teammates read comes back and is acted on here.
   */
  'outcomes:share': {
    request: z.strictObject({}),
    result: z.object({
      sent: count,
      forgotten: count,
      received: count,
      undone: count,
      letGo: count,
      suppressed: count,
      /** Teammates' outcomes whose address was none: left out. */
      skipped: count,
      source: z.string(),
      /** Catch-all domains: this folder's counts sent, and the team's now known. */
      catchAllSent: count,
      catchAllDomains: count,
    }),
  },
  /** A bounce or suppression export (CSV, TSV, workbook); `kind` says what every row is when no column does. */
  'outcomes:import': {
    request: z.strictObject({ file: fileRefSchema, kind: z.enum(['hard', 'soft']).optional() }),
    result: outcomeImportSchema,
  },
};
