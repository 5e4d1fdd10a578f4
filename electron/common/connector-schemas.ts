// The Connections screen's calls: the mailing tools whose lists Sift cleans (Mailchimp, HubSpot, Mailman 3),
// connected with a secret that goes to main's vault and never comes back, their lists, and each sync of a
// list: read, cleaned as a list is, planned, and written back only when the person asks.
import { z } from 'zod';
import { exportFileSchema, jobIdSchema } from './job-schemas.ts';

/** The tools Sift connects to. */
export const connectorKinds = ['mailman', 'mailchimp', 'hubspot'] as const;
export type ConnectorKind = (typeof connectorKinds)[number];

/** Each tool's name, as messages say it. */
export const toolNames: Record<ConnectorKind, string> = {
  mailman: 'Mailman',
  mailchimp: 'Mailchimp',
  hubspot: 'HubSpot',
};

/** What the person chose to be planned besides what the verdicts call for. */
export type PlanChoices = {
  /** The tool's step for invalid members (archive, unsubscribe, the static list). */
  withInvalidStep: boolean;
  /** The score and the day it was written in fields of Sift's own, where the tool has them (Mailchimp's). */
  withScoreFields: boolean;
};
/** Only what the verdicts call for: each choice is off until a person makes it. */
export const verdictsOnly: PlanChoices = { withInvalidStep: false, withScoreFields: false };

/** Members Mailchimp reads only on request, besides the subscribed ones: never unsubscribed, cleaned or archived. */
export const extraStatuses = ['pending', 'transactional'] as const;

/**
 * Which of a list's members a read takes: its subscribed ones, with `include`'s on request, and only those
 * of one segment or tag (Mailchimp's; the other tools read a list whole).
 */
export type ReadChoice = { include: readonly (typeof extraStatuses)[number][]; segment: string | null };
export const subscribedOnly: ReadChoice = { include: [], segment: null };

/** A read choice as the sync store keeps it (and a key to compare two by): empty for a list's subscribed members, the usual read. */
export const readChoiceKey = (choice: ReadChoice) =>
  choice.include.length === 0 && choice.segment === null
    ? ''
    : JSON.stringify({ include: [...choice.include].sort(), segment: choice.segment });
/** A read choice in words: "subscribed and pending members of segment or tag 123". */
export function readChoiceWords(choice: ReadChoice): string {
  const statuses = ['subscribed', ...choice.include];
  const members = `${statuses.slice(0, -1).join(', ')}${statuses.length > 1 ? ' and ' : ''}${statuses.at(-1)} members`;
  return choice.segment === null ? members : `${members} of segment or tag ${choice.segment}`;
}

const count = z.number().int().nonnegative();
/** A Mailchimp segment's or tag's id, as Mailchimp numbers them. */
const segmentIdSchema = z.string().regex(/^\d{1,20}$/, { message: "A segment's id is its number." });
const readChoiceSchema = z.object({ include: z.array(z.enum(extraStatuses)), segment: segmentIdSchema.nullable() });
/** A read choice in a request: Mailchimp's pending and transactional members only when asked, one segment. */
const readChoiceRequest = {
  include: z.array(z.enum(extraStatuses)).max(extraStatuses.length).default([]),
  segment: segmentIdSchema.nullable().default(null),
};
/** A connection's name as `sift sync NAME` types it (a bounce mailbox's too): letters, digits, dots, dashes
 * and underscores. */
export const connectionNamePattern = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;
export const connectionNameSchema = z.string().regex(connectionNamePattern, {
  message: 'A name is letters, digits, dots, dashes and underscores (at most 64).',
});
const audienceIdSchema = z.string().trim().min(1).max(200);
const syncIdSchema = z.number().int().positive();

/** A connection as Sift keeps it (connectors.json) and shows it: never its secret, which is in the key vault. */
export const connectionViewSchema = z.object({
  name: z.string(),
  kind: z.enum(connectorKinds),
  /** The API's address when one was given; empty for the tool's own. */
  apiUrl: z.string(),
  user: z.string().optional(),
  /** What the check at connect time said the secret reaches. */
  reaches: z.string(),
  connectedAt: z.number().int(),
});
export type ConnectionView = z.infer<typeof connectionViewSchema>;

const syncViewSchema = z.object({
  id: syncIdSchema,
  connection: z.string(),
  kind: z.enum(connectorKinds).nullable(),
  audience: z.string(),
  startedAt: z.number().int(),
  /** Which of the list's members it reads. */
  readChoice: readChoiceSchema,
  /** reading: members being read; cleaning: a list to clean (jobId); planned: a plan waits; done. */
  phase: z.enum(['reading', 'cleaning', 'planned', 'done']),
  members: count,
  jobId: jobIdSchema.nullable(),
  /** Each planned change in the tool's words with its count; empty before a plan. */
  plan: z.array(z.object({ members: count, change: z.string() })),
  /** The plan has the tool's step for invalid members (archive, unsubscribe, the static list), as chosen. */
  withInvalidStep: z.boolean(),
  /** The cleaned list has demo verdicts: nothing is ever written back. */
  demo: z.boolean(),
  written: count,
  refused: count,
  /** The first few refusals with the tool's words (all of them in the CSV the CLI writes beside the results). */
  refusedExamples: z.array(z.object({ email: z.string(), words: z.string() })),
});
export type SyncView = z.infer<typeof syncViewSchema>;

/** What a plan never does, said under it (the CLI's plan and the screen's): less when the step was chosen. */
export const nothingElseWords = (withInvalidStep: boolean) =>
  withInvalidStep
    ? 'Nothing else changes: no one is re-subscribed, and no one is deleted for good.'
    : 'Nothing else changes: no member is removed, unsubscribed or re-subscribed.';

const scheduleViewSchema = z.object({
  connection: z.string(),
  audience: z.string(),
  everyDays: z.number().int().positive(),
  writeBack: z.boolean(),
  /** Each run takes the tool's step for invalid members too (archive, unsubscribe, the static list). */
  withInvalidStep: z.boolean(),
  /** Each run writes the score and its day in Mailchimp fields of Sift's own too. */
  withScoreFields: z.boolean(),
  /** Which of the list's members each run reads. */
  readChoice: readChoiceSchema,
  nextDue: z.number().int(),
  lastRun: z.number().int().nullable(),
  lastOutcome: z.string().nullable(),
  /** False for a schedule made with its own service (`sift schedule … --base-url`): `sift sync --due` runs it. */
  byApp: z.boolean(),
});
export type ScheduleView = z.infer<typeof scheduleViewSchema>;

/** How often a list may be synced again, in days: every day, week or month. */
export const scheduleDays = [1, 7, 30] as const;

const connectionsPageSchema = z.object({
  connections: z.array(connectionViewSchema),
  /** The latest syncs, newest first. */
  syncs: z.array(syncViewSchema),
  schedules: z.array(scheduleViewSchema),
  /** How main keeps the secrets: the OS keyring, memory for this run only, or a 0600 file (web host). */
  secretProtection: z.enum(['encrypted', 'this-run-only', 'file-0600']),
  /** The runs missed while the app was closed and caught up at its start, in words; null when none were. */
  caughtUp: z.string().nullable(),
});
export type ConnectionsPage = z.infer<typeof connectionsPageSchema>;

const audienceSchema = z.object({ id: z.string(), name: z.string(), size: count });
export type AudienceView = z.infer<typeof audienceSchema>;
const segmentSchema = z.object({ id: z.string(), name: z.string(), kind: z.enum(['tag', 'segment']), size: count });
export type SegmentView = z.infer<typeof segmentSchema>;

export const connectorCalls = {
  'connectors:list': { request: z.strictObject({}), result: connectionsPageSchema },
  /**
   * Checks the secret with one cheap call and keeps the connection (the secret in main's vault, never sent
   * back); a refused secret is said in words and nothing is kept.
   */
  'connectors:add': {
    request: z.strictObject({
      kind: z.enum(connectorKinds),
      name: connectionNameSchema,
      secret: z.string().trim().min(1).max(512),
      apiUrl: z.string().trim().max(2048).default(''),
      user: z.string().trim().max(200).default(''),
    }),
    result: connectionsPageSchema,
  },
  /** The kept secret tried again now: what it reaches, in words. */
  'connectors:test': {
    request: z.strictObject({ name: connectionNameSchema }),
    result: z.object({ reaches: z.string() }),
  },
  /** Forgets the connection and its secret (the tool is not touched). */
  'connectors:remove': { request: z.strictObject({ name: connectionNameSchema }), result: connectionsPageSchema },
  'connectors:audiences': { request: z.strictObject({ name: connectionNameSchema }), result: z.array(audienceSchema) },
  /** A Mailchimp audience's segments and tags, to read one of them only. */
  'connectors:segments': {
    request: z.strictObject({ name: connectionNameSchema, audience: audienceIdSchema }),
    result: z.array(segmentSchema),
  },
  /**
   * Reads a list's members (only people the tool would mail; a read stopped part way goes on from there)
   * into a list the app cleans as any other: its cost is shown and agreed before anything is sent.
   */
  'connectors:read': {
    request: z.strictObject({
      name: connectionNameSchema,
      audience: audienceIdSchema,
      /** The list's name as the tool shows it, for the list's name in History ("shop · Newsletter"). */
      listName: z.string().trim().max(200).optional(),
      /** Mailchimp: pending and transactional members too, only when asked; only one segment's or tag's. */
      ...readChoiceRequest,
    }),
    result: syncViewSchema,
  },
  /**
   * Reads back what happened after the tool's sends to a list (Mailchimp's cleaned members and campaign
   * reports, HubSpot's bounce facts, Mailman's members disabled by bounces), only what is new since the last
   * read: hard bounces go on the do-not-mail list; History's "What happened" panel shows the rest.
   */
  'connectors:bounces': {
    request: z.strictObject({ name: connectionNameSchema, audience: audienceIdSchema }),
    result: z.object({ hard: count, soft: count, refused: count, sends: count, suppressed: count }),
  },
  /** Plans what the finished list's verdicts call for in the tool; nothing is written. */
  'connectors:plan': {
    request: z.strictObject({
      syncId: syncIdSchema,
      /** The tool's own step for invalid members too: Mailchimp archives, Mailman unsubscribes, HubSpot lists. */
      withInvalidStep: z.boolean().default(false),
      /** Mailchimp: each score and its day in the fields SIFTSCORE and SIFTDATE, made where there is room. */
      withScoreFields: z.boolean().default(false),
    }),
    result: syncViewSchema,
  },
  /** Writes exactly the plan, each change once; the tool's refusals are kept with its words. */
  'connectors:writeBack': { request: z.strictObject({ syncId: syncIdSchema }), result: syncViewSchema },
  /** Syncs a list again every 1, 7 or 30 days while the app is open (and `sift sync --due`), or stops. */
  'connectors:schedule': {
    request: z.strictObject({
      name: connectionNameSchema,
      audience: audienceIdSchema,
      everyDays: z.union(scheduleDays.map((days) => z.literal(days))).nullable(),
      writeBack: z.boolean().default(false),
      /** Each run plans the tool's step for invalid members too: only when ticked. */
      withInvalidStep: z.boolean().default(false),
      /** Each run plans Mailchimp's score fields too: only when ticked. */
      withScoreFields: z.boolean().default(false),
      /** Mailchimp: which members each run reads. */
      ...readChoiceRequest,
    }),
    result: connectionsPageSchema,
  },
  /**
   * Every change of a sync the tool refused, with its words, written as a CSV beside the list's exports
   * (the screen shows the first few).
   */
  'connectors:refusals': { request: z.strictObject({ syncId: syncIdSchema }), result: exportFileSchema },
  /** Sets a sync aside unwritten: the next read of the list starts afresh. */
  'connectors:discard': { request: z.strictObject({ syncId: syncIdSchema }), result: connectionsPageSchema },
} as const;

export const connectorEvents = {
  /** Members read, or changes written, so far. */
  'connectors:didProgress': z.object({ syncId: syncIdSchema, step: z.enum(['reading', 'writing']), count }),
} as const;
