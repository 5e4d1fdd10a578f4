// SIFT'S OWN, not the spec's: a team's outcomes kept by Sift's own service (in its database, PostgreSQL
// for a team), so a bounce one person reads keeps the address out of everyone's next list. The spec has no
// such thing ("The method and the response are not shown" is said of the shortcuts; of outcomes it says
// nothing): a service offers it by naming `outcomes` in GET /account's `features` (assumptions.ts), and
// Sift calls these paths only on a service that does. Each outcome's id and source are the sender's own:
// what it sends again replaces what it sent (an undo), and a forgotten source is gone for everyone. Beside
// them, each folder's catch-all counts (sends and hard bounces per catch-all domain, never who was sent to),
// read back added up over the other folders.
import { z } from 'zod';

/** The name GET /account's `features` gives this extension. */
export const teamOutcomesFeature = 'outcomes';

export const teamOutcomePaths = {
  outcomes: '/outcomes',
  forget: '/outcomes/forget',
  catchAll: '/outcomes/catch-all',
} as const;

/** Outcomes per POST /outcomes, and per page of GET /outcomes. */
export const teamOutcomesPageLimit = 1000;

const isoTime = z.string().datetime({ offset: true });

/** The longest each text of an outcome may be (a sender clips to them). */
export const teamOutcomeTextLimits = { reason: 200, status: 40, words: 2000 } as const;

const teamOutcomeSchema = z.object({
  /** The sender's id for this outcome: `SOURCE/N`, unique for ever (a source forgotten and read again is a new source). */
  id: z.string().min(3).max(200),
  /** The sender's id for where it read it: `ORIGIN.RANDOM` (one origin per data folder). */
  source: z.string().min(1).max(160),
  email: z.string().min(3).max(320),
  kind: z.enum(['hard', 'soft', 'refused']),
  reason: z.string().max(teamOutcomeTextLimits.reason),
  status: z.string().max(teamOutcomeTextLimits.status).nullable().optional(),
  /** The server's words. */
  words: z.string().max(teamOutcomeTextLimits.words).nullable().optional(),
  at: isoTime,
  undone_at: isoTime.nullable().optional(),
});
export type TeamOutcome = z.infer<typeof teamOutcomeSchema>;

/** POST /outcomes: outcomes new or changed (an undo) since the sender last sent. */
export const shareOutcomesRequestSchema = z.object({
  outcomes: z.array(teamOutcomeSchema).min(1).max(teamOutcomesPageLimit),
});
export const shareOutcomesAnswerSchema = z.object({ stored: z.number().int() });

/** POST /outcomes/forget: a source of the sender's own, gone for the whole team. */
export const forgetTeamSourceRequestSchema = z.object({ source: z.string().min(1).max(160) });
export const forgetTeamSourceAnswerSchema = z.object({ forgotten: z.number().int() });

/**
 * GET /outcomes?after=CURSOR&limit=N: every outcome new or changed since the cursor, in the order the
 * service kept them. A forgotten one comes back once more with `forgotten: true`, so a reader can let it go.
 */
export const teamOutcomesAfterParam = 'after';
export const teamOutcomesPageSchema = z.object({
  // A forgotten outcome's words are wiped: its address too.
  data: z.array(teamOutcomeSchema.extend({ email: z.string().max(320), forgotten: z.boolean() })),
  /** Opaque: given back as `after` for the next page. */
  next_after: z.string(),
  has_more: z.boolean(),
});
export type TeamOutcomesPage = z.infer<typeof teamOutcomesPageSchema>;

/**
 * A data folder's sends to the addresses of a catch-all domain that its Sift had called catch-all, and how
 * many of those bounced hard after: counts only, never who was sent to. A count of no sends takes the folder's
 * counts for that domain away (its sends were forgotten).
 */
const catchAllCountSchema = z
  .object({
    domain: z.string().min(1).max(253),
    sent: z.number().int().min(0),
    bounced: z.number().int().min(0),
    /** When the first of these sends was. */
    since: isoTime,
  })
  .refine((count) => count.bounced <= count.sent, { message: 'bounced cannot be more than sent' });
export type CatchAllCount = z.infer<typeof catchAllCountSchema>;

/** POST /outcomes/catch-all: a folder's counts that changed since it last sent them, by its origin. */
export const shareCatchAllRequestSchema = z.object({
  origin: z.string().min(1).max(40),
  domains: z.array(catchAllCountSchema).min(1).max(teamOutcomesPageLimit),
});
export const shareCatchAllAnswerSchema = z.object({ stored: z.number().int() });

/**
 * GET /outcomes/catch-all?except=ORIGIN&after=DOMAIN&limit=N: every other folder's counts added up per
 * domain, in the order of the domains' names; `folders` says how many folders' sends each is.
 */
export const teamCatchAllParams = { except: 'except', after: 'after' } as const;
export const teamCatchAllPageSchema = z.object({
  data: z.array(
    z.object({
      domain: z.string(),
      sent: z.number().int(),
      bounced: z.number().int(),
      since: isoTime,
      folders: z.number().int(),
    }),
  ),
  next_after: z.string(),
  has_more: z.boolean(),
});
export type TeamCatchAllPage = z.infer<typeof teamCatchAllPageSchema>;
