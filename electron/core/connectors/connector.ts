// What Sift asks of a mailing tool or list server (Mailman 3 today; Mailchimp and HubSpot to come): who the
// key is, its lists, a list's members a page at a time, and the few changes a sync may make to members.
// Each tool's adapter speaks its own API; the sync (sync-run.ts) knows only this.

/** The tools Sift connects to. */
export const connectorKinds = ['mailman'] as const;
export type ConnectorKind = (typeof connectorKinds)[number];

/** A list, audience or contact list of the tool, as `sift audiences` names it. */
type Audience = { id: string; name: string; size: number };

/** A person the tool would mail: its own id for them, and their address as the tool holds it. */
type Member = { id: string; email: string; name: string };

/** A page of members and where the next one starts (none after the last). */
type MemberPage = { members: Member[]; next?: string };

/** A change a sync makes to one member. */
export type MemberChange = 'delivery_off';

/** What the tool said to one change: done, or refused with its words. */
export type ChangeOutcome = { memberId: string; done: true } | { memberId: string; done: false; words: string };

export type Connector = {
  readonly kind: ConnectorKind;
  /** A cheap call that proves the secret works: who or what it reaches, in words. */
  check(): Promise<string>;
  audiences(): Promise<Audience[]>;
  /** The page of `audience`'s members from `cursor` (the first page without one). */
  readPage(audience: string, cursor: string | undefined): Promise<MemberPage>;
  /**
   * Makes `change` to each member, as many at once as the tool allows, telling each outcome as the tool
   * gives it (kept before the next call: a sync stopped part way writes nothing twice).
   */
  apply(
    audience: string,
    change: MemberChange,
    memberIds: readonly string[],
    onOutcome: (outcome: ChangeOutcome) => void,
  ): Promise<void>;
  /** What `change` does, in the tool's own terms, for a plan: "delivery turned off (by moderator)". */
  describe(change: MemberChange): string;
};

/** A tool refused or could not be reached: the message is for people, with no secret in it. */
export class ConnectorError extends Error {
  readonly kind: 'authentication' | 'not_found' | 'unreachable' | 'refused';
  constructor(kind: ConnectorError['kind'], message: string) {
    super(message);
    this.name = 'ConnectorError';
    this.kind = kind;
  }
}
