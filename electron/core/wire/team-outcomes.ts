// SIFT'S OWN, not the spec's: a team's outcomes kept by Sift's own service (in its database, PostgreSQL
// for a team), so a bounce one person reads keeps the address out of everyone's next list. The spec has no
// such thing ("The method and the response are not shown" is said of the shortcuts; of outcomes it says
// nothing): a service offers it by naming `outcomes` in GET /account's `features` (assumptions.ts), and
// Sift calls these paths only on a service that does. Each outcome's id and source are the sender's own:
// what it sends again replaces what it sent (an undo), and a forgotten source is gone for everyone.
import { z } from 'zod';

/** The name GET /account's `features` gives this extension. */
export const teamOutcomesFeature = 'outcomes';

export const teamOutcomePaths = { outcomes: '/outcomes', forget: '/outcomes/forget' } as const;

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
