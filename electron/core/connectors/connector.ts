// What Sift asks of a mailing tool or list server (Mailchimp, HubSpot and Mailman 3): who the
// key is, its lists, a list's members a page at a time, and the few changes a sync may make to members.
// Each tool's adapter speaks its own API; the sync (sync-run.ts) knows only this.

import {
  extraStatuses,
  subscribedOnly,
  type ConnectorKind,
  type PlanChoices,
  type ReadChoice,
  type SegmentView,
} from '../../common/connector-schemas.ts';
import type { BounceReader } from './tool-bounces.ts';
export {
  connectorKinds,
  extraStatuses,
  readChoiceKey,
  subscribedOnly,
  toolNames,
  type ConnectorKind,
  type PlanChoices,
  type ReadChoice,
  verdictsOnly,
} from '../../common/connector-schemas.ts';

/** A list, audience or contact list of the tool, as `sift audiences` names it. */
type Audience = { id: string; name: string; size: number };

/**
 * A person the tool would mail: its own id for them, their address as the tool holds it, and their status
 * there where the tool has one (Mailchimp's subscribed, pending, transactional).
 */
type Member = { id: string; email: string; name: string; status?: string };

/**
 * A page of members and where the next one starts (none after the last); `claimed`: how many members the
 * tool says the collection this page is from holds (`of` names it: a status, a roster), where it says.
 */
type MemberPage = { members: Member[]; next?: string; claimed?: { of: string; count: number } };

/** A read choice as `sift sync`'s flags, as a schedule keeps them. */
export const readChoiceFlags = (choice: ReadChoice): string[] => [
  ...(choice.include.length > 0 ? ['--include', choice.include.join(',')] : []),
  ...(choice.segment !== null ? ['--segment', choice.segment] : []),
];

/** The read choice a schedule's flags make (`sift schedule` checked them when it kept them). */
export function readChoiceInFlags(flags: readonly string[]): ReadChoice {
  const valueOf = (flag: string) => (flags.includes(flag) ? flags[flags.indexOf(flag) + 1] : undefined);
  const include = (valueOf('--include') ?? '')
    .split(',')
    .filter((status): status is ReadChoice['include'][number] => (extraStatuses as readonly string[]).includes(status));
  return { include, segment: valueOf('--segment') ?? null };
}

/** A read choice as the sync store keeps it (readChoiceKey), back. */
export const readChoiceFromKey = (key: string): ReadChoice =>
  key === '' ? subscribedOnly : (JSON.parse(key) as ReadChoice);

/** A segment or tag of a Mailchimp audience, as `sift audiences NAME LIST` names it. */
type Segment = SegmentView;

/**
 * The tags a verdict gives a Mailchimp member, one at a time (sift-catch-all for catch_all; sift-risky for a
 * verdict kept only from a score it did not reach).
 */
export const verdictTags = ['sift-valid', 'sift-invalid', 'sift-catch-all', 'sift-unknown', 'sift-risky'] as const;

/** The verdicts a sync writes back, as the service names them. */
export const writtenResults = ['valid', 'invalid', 'catch_all', 'unknown'] as const;

/**
 * A change a sync makes to one member: its delivery turned off (Mailman), a verdict's tag made its one sift
 * tag (Mailchimp), or its sift_result property set (HubSpot); and, only when the person chooses them, the
 * tool's step for an invalid member (InvalidStep) and the score and date in fields of Sift's own
 * (`score_fields`, Mailchimp's merge fields).
 */
export type MemberChange =
  | 'delivery_off'
  | `tag:${(typeof verdictTags)[number]}`
  | `result:${(typeof writtenResults)[number]}`
  | 'score_fields'
  | InvalidStep;

/**
 * Changes of one kind replace each other (a member has one sift tag, one sift_result): the kind is what comes
 * before the colon. An earlier sync's change of the same kind is what a new one is compared with.
 */
export const changeKind = (change: MemberChange) => change.split(':')[0]!;

/** The flag that asks for the score fields (`sift sync`, and what a schedule keeps). */
export const scoreFieldsFlag = '--merge-fields';

/** Plan choices as `sift sync`'s flags, as a schedule keeps them (`step`: the tool's own, InvalidStep). */
export const planChoiceFlags = (step: InvalidStep, choices: PlanChoices): string[] => [
  ...(choices.withInvalidStep ? [invalidStepFlags[step]] : []),
  ...(choices.withScoreFields ? [scoreFieldsFlag] : []),
];

/**
 * A tool's own step for an invalid member, taken only when the person chooses it: Mailchimp archives it
 * (never a permanent delete), Mailman unsubscribes it, HubSpot adds it to its static list "Sift: invalid"
 * (HubSpot's unsubscribe cannot be undone by the sender, so Sift never makes it).
 */
export type InvalidStep = 'archive' | 'unsubscribe' | 'invalid_list';

/** Each tool's step for invalid members. */
export const invalidStepOf: Record<ConnectorKind, InvalidStep> = {
  mailchimp: 'archive',
  mailman: 'unsubscribe',
  hubspot: 'invalid_list',
};

/** The flag that asks for each step (`sift sync`, and what a schedule keeps, the app's schedules too). */
export const invalidStepFlags: Record<InvalidStep, `--${string}`> = {
  archive: '--archive-invalid',
  unsubscribe: '--unsubscribe-invalid',
  invalid_list: '--list-invalid',
};

/** What the tool said to one change: done, or refused with its words. */
export type ChangeOutcome = { memberId: string; done: true } | { memberId: string; done: false; words: string };

export type Connector = {
  readonly kind: ConnectorKind;
  /** A cheap call that proves the secret works: who or what it reaches, in words. */
  check(): Promise<string>;
  audiences(): Promise<Audience[]>;
  /** The page of `audience`'s members from `cursor` (the first page without one), as `choice` says. */
  readPage(audience: string, cursor: string | undefined, choice: ReadChoice): Promise<MemberPage>;
  /** What happened after the tool's sends to `audience`: its bounces (and sends), read back (outcomes/). */
  bounces?: BounceReader;
  /** An audience's segments and tags, for a tool whose reads may take one (Mailchimp). */
  segments?(audience: string): Promise<Segment[]>;
  /**
   * Makes `change` to each member, as many at once as the tool allows, telling each outcome as the tool
   * gives it (kept before the next call: a sync stopped part way writes nothing twice).
   */
  apply(
    audience: string,
    change: MemberChange,
    members: readonly { memberId: string; score: number | null; reasons: string }[],
    onOutcome: (outcome: ChangeOutcome) => void,
  ): Promise<void>;
  /**
   * The tool's bulk route for one change to many members (Mailchimp's batch operations), where one call per
   * member would take too long. `send` answers the job's id (undefined: not for bulk, written by `apply`),
   * kept before its results are awaited, so a sync stopped while the job runs reads its results when run
   * again and never sends it twice.
   */
  bulk?: {
    /** The fewest members, and the most, one job is sent for; fewer go one call each. */
    readonly from: number;
    readonly most: number;
    send(
      audience: string,
      change: MemberChange,
      members: readonly { memberId: string; score: number | null }[],
    ): Promise<string | undefined>;
    collect(job: string, onOutcome: (outcome: ChangeOutcome) => void, signal?: AbortSignal): Promise<void>;
  };
  /**
   * Changes read from the sync store per page of writing, where the tool's batch calls need more than the
   * default 100 to be full (a page splits by change: HubSpot's four verdicts would make batches of 25).
   */
  readonly writePage?: number;
  /** What of a member's score this change writes to the tool: a new one alone writes the change again. */
  scoreKept(change: MemberChange): readonly ('score' | 'reasons')[];
  /** The tool can keep a score and its date in fields of Sift's own (Mailchimp's merge fields). */
  readonly offersScoreFields: boolean;
  /**
   * Makes what `changes` need in `audience`, before the first is written (HubSpot's properties, Mailchimp's
   * merge fields where there is room). What it cannot make, the changes that need it are refused for, in words.
   */
  prepare?(audience: string, changes: ReadonlySet<MemberChange>): Promise<void>;
  /**
   * The changes a verdict (`valid`, `invalid`, `catch_all`, `unknown`) calls for here, in the order they are
   * written. `risky`: the verdict is kept only from a score and this member's is below it; `scored`: the row
   * has a score; `status`: the member's at the tool ('' where none is known); `choices`: what the person
   * chose besides.
   */
  changesFor(
    verdict: { result: string; risky: boolean; scored: boolean; status: string },
    choices: PlanChoices,
  ): MemberChange[];
  /** This tool's own step for an invalid member, taken only when the person chooses it. */
  readonly invalidStep: InvalidStep;
  /** What `change` does, in the tool's own terms, for a plan: "delivery turned off (by moderator)". */
  describe(change: MemberChange): string;
};

/** A tool refused or could not be reached: the message is for people, with no secret in it. */
export class ConnectorError extends Error {
  readonly kind: 'authentication' | 'not_found' | 'unreachable' | 'refused';
  /** The tool's HTTP status, when it answered. */
  readonly status: number | undefined;
  constructor(kind: ConnectorError['kind'], message: string, status?: number) {
    super(message);
    this.name = 'ConnectorError';
    this.kind = kind;
    this.status = status;
  }
}

/**
 * A change one member was refused, in the tool's words; anything else (no answer, a refused secret, a fault
 * of Sift's) is thrown on: it would refuse every other member too, and the sync stops to go on later.
 */
export function memberRefusal(error: unknown): string {
  if (!(error instanceof ConnectorError) || error.kind === 'unreachable' || error.kind === 'authentication')
    throw error;
  return error.message;
}
