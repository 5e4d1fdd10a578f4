// Mailman 3's REST API (version 3.1), as Debian's mailman3 3.3.8 serves it: basic auth with the admin user
// set in mailman.cfg's [webservice], lists at /lists, a list's members at /lists/{list_id}/roster/member
// (paged by count and page, from 1), and a member's delivery at /members/{id}/preferences.
// Source: Mailman core's REST docs, https://docs.mailman3.org/projects/mailman/en/latest/src/mailman/rest/docs/
// (lists.html, membership.html: "Leaving a mailing list … DELETE" of the member's resource; preferences.html).
import { z } from 'zod';
import { invalidStepOf, memberRefusal, type Connector } from './connector.ts';
import { mailmanBounces } from './mailman-bounces.ts';
import { toolBaseUrl, toolHttp } from './tool-http.ts';
import { checkedId, mailmanMemberId } from './tool-ids.ts';
import { toolPath } from './tool-path.ts';

/** Members read a page at a time: the roster's pages are counted by Mailman, not by a cursor. */
const pageSize = 500;

const listsAnswer = z.object({
  entries: z
    .array(
      z.object({
        list_id: z.string(),
        fqdn_listname: z.string(),
        display_name: z.string().optional(),
        member_count: z.number().optional(),
      }),
    )
    .optional(),
});
const rosterAnswer = z.object({
  total_size: z.number(),
  entries: z
    .array(
      z.object({ member_id: z.union([z.string(), z.number()]), email: z.string(), display_name: z.string().nullish() }),
    )
    .optional(),
});
const versionsAnswer = z.object({ mailman_version: z.string(), api_version: z.string() });

/**
 * `by_moderator`: delivery off, as a list admin sets it, and turned back on the same way. Mailman's other
 * reasons (`by_user`, `by_bounces`) would tell the member or the bounce processor something untrue.
 */
const deliveryOff = 'by_moderator';

export function mailmanConnector(apiUrl: string, user: string, password: string): Connector {
  const base = toolBaseUrl('Mailman', apiUrl.replace(/\/+$/, '').replace(/\/3\.1$/, '') + '/3.1');
  const http = toolHttp('Mailman', base, `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`, password);
  return {
    kind: 'mailman',
    bounces: mailmanBounces(http),
    async check() {
      const { body } = await http.call('GET', toolPath`/system/versions`);
      const versions = http.parse(versionsAnswer, body, 'its versions');
      return `${versions.mailman_version} (REST API ${versions.api_version}) at ${http.host}`;
    },
    async audiences() {
      const { body } = await http.call('GET', toolPath`/lists`);
      return (http.parse(listsAnswer, body, 'its lists').entries ?? []).map((list) => ({
        id: list.list_id,
        name: list.fqdn_listname,
        size: list.member_count ?? 0,
      }));
    },
    async readPage(audience, cursor) {
      const page = cursor === undefined ? 1 : Number(cursor);
      const { body } = await http.call(
        'GET',
        toolPath`/lists/${audience}/roster/member?count=${pageSize}&page=${page}`,
      );
      const roster = http.parse(rosterAnswer, body, "a list's members");
      const members = (roster.entries ?? []).map((entry) => ({
        id: checkedId('Mailman', http.host, mailmanMemberId, String(entry.member_id), entry.email),
        email: entry.email,
        name: entry.display_name ?? '',
      }));
      const more = page * pageSize < roster.total_size && members.length > 0;
      return {
        members,
        claimed: { of: 'roster', count: roster.total_size },
        ...(more ? { next: String(page + 1) } : {}),
      };
    },
    scoreKept: () => [],
    offersScoreFields: false,
    async apply(_audience, change, members, onOutcome) {
      if (change !== 'delivery_off' && change !== 'unsubscribe') throw new Error(`Mailman makes no ${change} change.`);
      const form = { delivery_status: deliveryOff };
      for (const { memberId } of members) {
        const memberPath = toolPath`/members/${memberId}`;
        try {
          if (change === 'unsubscribe') await http.call('DELETE', memberPath);
          else await http.call('PATCH', toolPath`${memberPath}/preferences`, { form });
          onOutcome({ memberId, done: true });
        } catch (error) {
          // A member who left since the read is no longer there to change: said, and the rest go on.
          onOutcome({ memberId, done: false, words: memberRefusal(error) });
        }
      }
    },
    // Unsubscribed in place of delivery turned off, only when the person chooses it.
    changesFor: ({ result }, { withInvalidStep }) =>
      result !== 'invalid' ? [] : [withInvalidStep ? ('unsubscribe' as const) : ('delivery_off' as const)],
    invalidStep: invalidStepOf.mailman,
    describe: (change) =>
      change === 'unsubscribe'
        ? 'unsubscribed from the list (Mailman does not tell them; an admin can subscribe them again)'
        : 'delivery turned off by the list (by_moderator: an admin turns it back on)',
  };
}
