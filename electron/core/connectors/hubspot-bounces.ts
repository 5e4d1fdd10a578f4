// HubSpot's outcomes: the bounce facts HubSpot keeps on each contact (its default contact properties,
// https://knowledge.hubspot.com/properties/hubspots-default-contact-properties): `hs_email_hard_bounce_reason_enum`
// ("Email hard bounce reason": the issue that caused a contact to hard bounce), `hs_email_hard_bounce_reason`
// (the same in words), `hs_email_bad_address` ("Invalid email address") and `hs_email_last_send_date`.
// The enumeration's values are not listed on that page; they are the bounce categories of HubSpot's email
// events (https://developers.hubspot.com/docs/api-reference/legacy/email-analytics-v1/guide, BOUNCE's
// `category`): UNKNOWN_USER is about the mailbox (hard); MAILBOX_FULL, GREYLISTING, TIMEOUT, THROTTLED and
// TEMPORARY_PROBLEM pass (soft); the rest (CONTENT, SPAM, POLICY, the reputations, DMARC, the sending
// domain's or the ISP's set-up, DNS_FAILURE, UNCATEGORIZED, OTHER, and any value Sift does not know) say
// nothing Sift can hold against the mailbox (refused). A contact HubSpot calls an invalid address, with no
// reason, is a hard bounce.
// Read with CRM search (POST /crm/v3/objects/contacts/search): the two facts as two filter groups, each
// with `lastmodifieddate` GTE the last read's start, sorted by it, 200 a page (search's most); search stops
// at 10,000 results, so a read that reaches them searches again from the last modification date seen.
import { z } from 'zod';
import { ConnectorError } from './connector.ts';
import type { BounceReader, ToolBounce } from './tool-bounces.ts';
import type { ToolHttp } from './tool-http.ts';
import { toolPath } from './tool-path.ts';

const pageSize = 200;
const searchCap = 10_000;

const soft = new Set(['MAILBOX_FULL', 'GREYLISTING', 'TIMEOUT', 'THROTTLED', 'TEMPORARY_PROBLEM']);

const cursorSchema = z.object({ since: z.number(), after: z.number(), began: z.number(), lastSeen: z.number() });
type Cursor = z.infer<typeof cursorSchema>;

const searchAnswer = z.object({
  results: z.array(z.object({ id: z.string(), properties: z.record(z.string(), z.string().nullable()) })).default([]),
  paging: z.object({ next: z.object({ after: z.string() }) }).optional(),
});

const properties = [
  'email',
  'hs_email_hard_bounce_reason_enum',
  'hs_email_hard_bounce_reason',
  'hs_email_bad_address',
  'hs_email_last_send_date',
  'lastmodifieddate',
];

const time = (value: string | null | undefined) => {
  if (!value) return Number.NaN;
  return /^\d+$/.test(value) ? Number(value) : Date.parse(value);
};

/** What a contact's bounce facts say, or undefined when they say nothing. */
function bounceOf(facts: Record<string, string | null>, now: number): ToolBounce | undefined {
  const reason = facts.hs_email_hard_bounce_reason_enum ?? '';
  const invalid = facts.hs_email_bad_address === 'true';
  if (!facts.email || (!reason && !invalid)) return undefined;
  const kind = reason === 'UNKNOWN_USER' || (!reason && invalid) ? 'hard' : soft.has(reason) ? 'soft' : 'refused';
  const sent = time(facts.hs_email_last_send_date);
  const changed = time(facts.lastmodifieddate);
  const words = [reason || 'invalid address', facts.hs_email_hard_bounce_reason].filter(Boolean).join(': ');
  return {
    email: facts.email,
    kind,
    at: Number.isFinite(sent) ? sent : Number.isFinite(changed) ? changed : now,
    words: `HubSpot: ${words}`,
  };
}

export function hubspotBounces(http: ToolHttp): BounceReader {
  return async (_audience, text) => {
    const now = Date.now();
    const kept: Cursor = text ? cursorSchema.parse(JSON.parse(text)) : { since: 0, after: 0, began: 0, lastSeen: 0 };
    const cursor = kept.began === 0 ? { ...kept, began: now } : kept;
    const since = { propertyName: 'lastmodifieddate', operator: 'GTE', value: String(cursor.since) };
    const { body } = await http.call('POST', toolPath`/crm/v3/objects/contacts/search`, {
      json: {
        filterGroups: [
          { filters: [{ propertyName: 'hs_email_hard_bounce_reason_enum', operator: 'HAS_PROPERTY' }, since] },
          { filters: [{ propertyName: 'hs_email_bad_address', operator: 'EQ', value: 'true' }, since] },
        ],
        sorts: [{ propertyName: 'lastmodifieddate', direction: 'ASCENDING' }],
        properties,
        limit: pageSize,
        ...(cursor.after > 0 ? { after: String(cursor.after) } : {}),
      },
    });
    const answer = http.parse(searchAnswer, body, 'contacts with bounces');
    const bounces = answer.results.flatMap((result) => bounceOf(result.properties, now) ?? []);
    const lastSeen = Math.max(
      cursor.lastSeen,
      ...answer.results.map((result) => time(result.properties.lastmodifieddate)).filter(Number.isFinite),
    );
    const after = Number(answer.paging?.next.after ?? 0);
    let next: Cursor;
    if (!answer.paging) next = { since: cursor.began, after: 0, began: 0, lastSeen: 0 };
    else if (after + pageSize > searchCap) {
      // Past search's cap: search again from the last modification seen (the contacts of that moment are
      // read again, and kept once). Contacts that all changed at one moment cannot be paged past it.
      if (lastSeen <= cursor.since)
        throw new ConnectorError(
          'refused',
          "HubSpot's search stops at 10,000 contacts, and more than that changed at the same moment: Sift cannot read past them.",
        );
      next = { ...cursor, since: lastSeen, after: 0, lastSeen };
    } else next = { ...cursor, after, lastSeen };
    return { bounces, sends: [], next: JSON.stringify(next), done: next.began === 0 };
  };
}
