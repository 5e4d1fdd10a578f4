// Mailchimp's outcomes of an audience, read back incrementally. Sources, Mailchimp's Marketing API reference:
// - Cleaned members: GET /lists/{list_id}/members?status=cleaned, with `since_last_changed` ("Restrict
//   results to subscribers whose information changed after the set timeframe") and each member's
//   `last_changed` (https://mailchimp.com/developer/marketing/api/list-members/list-members-info/). A member
//   is cleaned after a hard bounce, or after repeated soft ones (https://mailchimp.com/help/soft-vs-hard-bounces/):
//   a hard bounce to Sift, dated by `last_changed`.
// - Sent campaigns: GET /campaigns?list_id=…&status=sent&since_send_time=…&sort_field=send_time&sort_dir=ASC
//   (https://mailchimp.com/developer/marketing/api/campaigns/list-campaigns/).
// - Each campaign's recipients: GET /reports/{campaign_id}/sent-to, each with `status` "sent", "hard" or
//   "soft" (https://mailchimp.com/developer/marketing/api/sent-to-reports/list-campaign-recipients/): who was
//   sent to, and who bounced, dated by the campaign's `send_time`.
// Pages of 1,000 (Mailchimp's most), trimmed by `fields`.
import { z } from 'zod';
import type { BouncePage, BounceReader } from './tool-bounces.ts';
import type { ToolHttp } from './tool-http.ts';
import { toolPath } from './tool-path.ts';

const pageSize = 1000;

const cursorSchema = z.object({
  step: z.enum(['cleaned', 'campaigns', 'sent-to']),
  offset: z.number().int().nonnegative(),
  /** When this read began ('' between reads): the next read's cleaned members are those changed since. */
  began: z.string(),
  cleanedSince: z.string().optional(),
  sentSince: z.string().optional(),
  /** The campaigns found and not yet read, in send order. */
  campaigns: z.array(z.object({ id: z.string(), sent: z.string() })).default([]),
});
type Cursor = z.infer<typeof cursorSchema>;

const membersAnswer = z.object({
  members: z.array(z.object({ email_address: z.string(), last_changed: z.string().optional() })).default([]),
});
const campaignsAnswer = z.object({
  campaigns: z.array(z.object({ id: z.string(), send_time: z.string() })).default([]),
});
const sentToAnswer = z.object({
  sent_to: z.array(z.object({ email_address: z.string(), status: z.string() })).default([]),
});

const dateOf = (text: string | undefined, fallback: number) => {
  const parsed = text ? Date.parse(text) : Number.NaN;
  return Number.isFinite(parsed) ? parsed : fallback;
};

export function mailchimpBounces(http: ToolHttp): BounceReader {
  return async (audience, text) => {
    const now = new Date().toISOString();
    const kept: Cursor = text
      ? cursorSchema.parse(JSON.parse(text))
      : { step: 'cleaned', offset: 0, began: '', campaigns: [] };
    // A read begins: what changes from now on is the next read's.
    const cursor = kept.began === '' ? { ...kept, began: now } : kept;
    const page: BouncePage = { bounces: [], sends: [], next: '', done: false };
    let next: Cursor;
    if (cursor.step === 'cleaned') {
      const cleaned = toolPath`/lists/${audience}/members?status=cleaned&count=${pageSize}&offset=${cursor.offset}&fields=members.email_address,members.last_changed,total_items`;
      const { body } = await http.call(
        'GET',
        cursor.cleanedSince ? toolPath`${cleaned}&since_last_changed=${cursor.cleanedSince}` : cleaned,
      );
      const { members } = http.parse(membersAnswer, body, 'cleaned members');
      for (const member of members)
        page.bounces.push({
          email: member.email_address,
          kind: 'hard',
          at: dateOf(member.last_changed, Date.parse(cursor.began)),
          words: 'cleaned by Mailchimp',
        });
      next =
        members.length === pageSize
          ? { ...cursor, offset: cursor.offset + pageSize }
          : { ...cursor, step: 'campaigns', offset: 0 };
    } else if (cursor.step === 'campaigns') {
      const sent = toolPath`/campaigns?list_id=${audience}&status=sent&count=${pageSize}&offset=${cursor.offset}&sort_field=send_time&sort_dir=ASC&fields=campaigns.id,campaigns.send_time,total_items`;
      const { body } = await http.call(
        'GET',
        cursor.sentSince ? toolPath`${sent}&since_send_time=${cursor.sentSince}` : sent,
      );
      const found = http.parse(campaignsAnswer, body, 'sent campaigns').campaigns;
      // `since_send_time` is inclusive of the last campaign read before: it is read once.
      const campaigns = [
        ...cursor.campaigns,
        ...found
          .filter((each) => each.send_time !== cursor.sentSince)
          .map((each) => ({ id: each.id, sent: each.send_time })),
      ];
      next =
        found.length === pageSize
          ? { ...cursor, campaigns, offset: cursor.offset + pageSize }
          : { ...cursor, campaigns, step: 'sent-to', offset: 0 };
    } else {
      const [campaign, ...rest] = cursor.campaigns;
      if (!campaign) next = finished(cursor);
      else {
        const { body } = await http.call(
          'GET',
          toolPath`/reports/${campaign.id}/sent-to?count=${pageSize}&offset=${cursor.offset}&fields=sent_to.email_address,sent_to.status,total_items`,
        );
        const recipients = http.parse(sentToAnswer, body, "a campaign's recipients").sent_to;
        const at = dateOf(campaign.sent, Date.parse(cursor.began));
        for (const recipient of recipients) {
          page.sends.push({ email: recipient.email_address, at });
          if (recipient.status === 'hard' || recipient.status === 'soft')
            page.bounces.push({
              email: recipient.email_address,
              kind: recipient.status,
              at,
              words: `campaign ${campaign.id}: ${recipient.status} bounce`,
            });
        }
        next =
          recipients.length === pageSize
            ? { ...cursor, offset: cursor.offset + pageSize }
            : { ...cursor, campaigns: rest, sentSince: campaign.sent, offset: 0 };
      }
    }
    page.done = next.began === '';
    page.next = JSON.stringify(next);
    return page;
  };
}

/** The cursor the next read starts from: members changed, and campaigns sent, since this one. */
function finished(cursor: Cursor): Cursor {
  return {
    step: 'cleaned',
    offset: 0,
    began: '',
    cleanedSince: cursor.began,
    campaigns: [],
    ...(cursor.sentSince ? { sentSince: cursor.sentSince } : {}),
  };
}
