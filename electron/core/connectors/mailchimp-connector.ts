// Mailchimp's Marketing API (3.0). The API key ends in its data centre (`…-us21`), which names the API's host
// (https://us21.api.mailchimp.com/3.0); HTTP basic auth with any user name and the key. Sources, the API
// definitions Mailchimp's own SDKs are generated from (github.com/mailchimp/mailchimp-marketing-typescript-sdk,
// src/api/resources/lists/client/requests/):
// - ListMembersListsRequest.ts: members are paged by `count` ("Maximum value is 1000") and `offset`, filtered
//   by `status`, trimmed by `fields`.
// - CreateMemberTagListsRequest.ts: POST /lists/{list_id}/members/{subscriber_hash}/tags with tags
//   `{name, status: active|inactive}`; "When is_syncing is true, automations based on the tags in the
//   request will not fire". subscriber_hash: "The MD5 hash of the lowercase version of the list member's
//   email address" (the member's `id`).
// - ListMembersListsRequest.ts takes one `status` a call: pending and transactional members, when asked
//   for, are read after the subscribed ones, each status paged on its own.
// - ListSegmentsListsRequest.ts: GET /lists/{list_id}/segments, each `type` static (a tag), saved or fuzzy;
//   ListSegmentMembersListsRequest.ts: GET …/segments/{segment_id}/members, paged as members are, with no
//   `status` filter ("include_cleaned", "include_transactional", "include_unsubscribed" widen it): Sift keeps
//   only the statuses chosen from each page.
// - DELETE /lists/{list_id}/members/{subscriber_hash}: "Archive a list member. To permanently delete, use the
//   delete-permanent action" (Mailchimp's API definition, as its Node client's ListsApi documents
//   deleteListMember). Sift archives only when the person chooses it, and never deletes permanently.
// Concurrency: "each user account [is limited] to 10 concurrent connections", beyond which Mailchimp answers
// with a too-many-connections error (Mailchimp's API announcement, http://eepurl.com/4cIXv); Sift uses them.
import { z } from 'zod';
import {
  ConnectorError,
  invalidStepOf,
  memberRefusal,
  verdictTags,
  type Connector,
  type MemberChange,
} from './connector.ts';
import { collectBatch, submitBatch, type BatchCall } from './mailchimp-batches.ts';
import { mailchimpBounces } from './mailchimp-bounces.ts';
import { readyScoreFields, type ScoreFieldsState } from './mailchimp-fields.ts';
import { toolBaseUrl, toolHttp } from './tool-http.ts';
import { checkedId, mailchimpMemberId } from './tool-ids.ts';
import { toolPath, type ToolPath } from './tool-path.ts';

/** Members per page: Mailchimp's most. */
const pageSize = 1000;
/** Members each page re-reads of the page before (overlappingPage). */
const overlap = 100;
/**
 * Calls at once: Mailchimp's documented 10 per account. A call refused for too many connections (the
 * person's other tools share them) is a 429, waited out and tried again.
 */
const connectionsAtOnce = 10;
/**
 * A change (one tag, the score fields, the archive) goes to this many members or more in one batch
 * (mailchimp-batches.ts), up to the most: fewer are written a call each, 10 at once, which takes about as
 * long as a batch's round trip. Mailchimp documents no most for a batch; 5,000 keeps each results archive
 * small.
 */
const batchFrom = 500;
const batchMost = 5_000;

/** Statuses Mailchimp will not archive (cleaned and archived members are never read). */
const unarchivable = new Set(['pending', 'cleaned', 'archived']);

const tagOf: Record<string, (typeof verdictTags)[number]> = {
  valid: 'sift-valid',
  invalid: 'sift-invalid',
  catch_all: 'sift-catch-all',
  unknown: 'sift-unknown',
};

/** The API's root for a key: its data centre's host, or the address the connection names (a proxy, a test). */
function mailchimpApiUrl(key: string, apiUrl: string | undefined): string {
  if (apiUrl) return apiUrl;
  const dataCentre = /-([a-z]{2,4}\d{1,3})$/.exec(key.trim())?.[1];
  if (!dataCentre)
    throw new ConnectorError(
      'authentication',
      'A Mailchimp API key ends in its data centre, such as -us21: this one does not. Copy the whole key from Mailchimp (Profile → Extras → API keys).',
    );
  return `https://${dataCentre}.api.mailchimp.com/3.0`;
}

const rootAnswer = z.object({ account_name: z.string().optional(), login_id: z.string().optional() });
const listsAnswer = z.object({
  lists: z.array(
    z.object({ id: z.string(), name: z.string(), stats: z.object({ member_count: z.number() }).partial().optional() }),
  ),
  total_items: z.number(),
});
const membersAnswer = z.object({
  members: z.array(
    z.object({
      id: z.string(),
      email_address: z.string(),
      full_name: z.string().nullish(),
      status: z.string().optional(),
    }),
  ),
  total_items: z.number(),
});
const segmentsAnswer = z.object({
  segments: z.array(z.object({ id: z.number(), name: z.string(), type: z.string(), member_count: z.number() })),
  total_items: z.number(),
});
const memberFields = 'members.id,members.email_address,members.full_name,members.status,total_items';

/**
 * Where a read is: "status:offset:lastId" (a bare offset is a subscribed page, as an earlier version kept
 * it), `lastId` being the last member the page before ended with.
 */
function cursorOf(cursor: string | undefined): { scope: string; offset: number; lastId?: string } {
  if (cursor === undefined) return { scope: 'subscribed', offset: 0 };
  const [scope, offset, lastId] = cursor.includes(':') ? cursor.split(':') : ['subscribed', cursor];
  return { scope: scope!, offset: Number(offset), ...(lastId ? { lastId } : {}) };
}

export function mailchimpConnector(apiUrl: string | undefined, key: string): Connector {
  const base = toolBaseUrl('Mailchimp', mailchimpApiUrl(key, apiUrl));
  const http = toolHttp('Mailchimp', base, `Basic ${Buffer.from(`sift:${key}`).toString('base64')}`, key);
  const listPath = (audience: string) => toolPath`/lists/${audience}`;
  /** A member as Sift keeps it, its id refused unless it is the subscriber hash of its address. */
  const memberOf = (member: z.infer<typeof membersAnswer>['members'][number]) => {
    const id = checkedId('Mailchimp', http.host, mailchimpMemberId, member.id, member.email_address);
    return { id, email: member.email_address, name: member.full_name ?? '', status: member.status ?? '' };
  };
  /**
   * A page from `at`, starting `overlap` members early: Mailchimp pages by offset only, so a member who
   * leaves during the read moves the rest back one place, and a plain next page would skip the member at
   * its start. The page before's last member, found in the overlap, says where the new members begin; not
   * found (more left than the overlap, or that member itself), the whole overlap is taken again: a member
   * read twice is planned once, a member skipped would never be.
   */
  const overlappingPage = async (path: ToolPath, at: ReturnType<typeof cursorOf>, what: string) => {
    const from = at.lastId ? Math.max(0, at.offset - overlap) : at.offset;
    const { body } = await http.call('GET', toolPath`${path}&count=${pageSize}&offset=${from}`);
    const page = http.parse(membersAnswer, body, what);
    const seen = at.lastId ? page.members.findIndex((member) => member.id === at.lastId) : -1;
    const next = from + page.members.length;
    const last = page.members.at(-1)?.id;
    return {
      fresh: page.members.slice(seen + 1),
      // Ended: nothing past where the page before ended, or the total reached.
      end: next <= at.offset || next >= page.total_items || !last,
      next: `${next}:${last}`,
      total: page.total_items,
    };
  };
  /** Every item of a collection Mailchimp pages by offset (its audiences, an audience's segments). */
  const everyPage = async <Key extends string, Item>(
    path: ToolPath,
    parse: (body: unknown) => Record<Key, Item[]> & { total_items: number },
    key: Key,
  ): Promise<Item[]> => {
    const items: Item[] = [];
    for (let offset = 0; ; offset += pageSize) {
      const page = parse((await http.call('GET', toolPath`${path}&count=${pageSize}&offset=${offset}`)).body);
      items.push(...page[key]);
      if (page[key].length === 0 || offset + pageSize >= page.total_items) return items;
    }
  };
  /** Each audience's score fields, found or made before its first score is written. */
  const scoreFieldsOf = new Map<string, ScoreFieldsState>();
  /**
   * The call that makes `change` to a member, the same alone or in a batch; or why none may be made (Sift's
   * score fields not there), in words for each member.
   */
  const callsFor = (
    audience: string,
    change: MemberChange,
  ): { call: (member: { memberId: string; score: number | null }) => BatchCall } | { words: string } => {
    const tag = change.startsWith('tag:') ? change.slice(4) : undefined;
    if (!tag && change !== 'archive' && change !== 'score_fields')
      throw new Error(`Mailchimp makes no ${change} change.`);
    // One sift tag at a time: the verdict's made active, every other sift tag made inactive.
    const tags = verdictTags.map((name) => ({ name, status: name === tag ? 'active' : 'inactive' }));
    const fields = change === 'score_fields' ? scoreFieldsOf.get(audience) : undefined;
    if (fields && !fields.ready) return { words: fields.words };
    return {
      call: ({ memberId, score }) => {
        const memberPath = toolPath`${listPath(audience)}/members/${memberId}`;
        if (tag)
          return { memberId, method: 'POST', path: toolPath`${memberPath}/tags`, body: { tags, is_syncing: true } };
        if (fields?.ready) {
          // Planned only for a scored row (changesFor): never a made-up 0.
          if (score === null) throw new Error('A score change was planned for a row with no score.');
          const path = toolPath`${memberPath}?skip_merge_validation=true`;
          return { memberId, method: 'PATCH', path, body: { merge_fields: fields.mergeFields(score) } };
        }
        return { memberId, method: 'DELETE', path: memberPath };
      },
    };
  };
  return {
    kind: 'mailchimp',
    bounces: mailchimpBounces(http),
    async check() {
      const { body } = await http.call('GET', toolPath`/?fields=account_name,login_id`);
      const root = http.parse(rootAnswer, body, 'its account');
      return `Mailchimp account ${root.account_name ?? root.login_id ?? '(unnamed)'} at ${http.host}`;
    },
    async audiences() {
      const path = toolPath`/lists?fields=lists.id,lists.name,lists.stats.member_count,total_items`;
      const lists = await everyPage(path, (body) => http.parse(listsAnswer, body, 'its audiences'), 'lists');
      return lists.map((list) => ({ id: list.id, name: list.name, size: list.stats?.member_count ?? 0 }));
    },
    async readPage(audience, cursor, choice) {
      // Only people Mailchimp would mail: subscribed members, pending and transactional ones when asked for;
      // never unsubscribed, cleaned or archived ones.
      const statuses = ['subscribed', ...choice.include];
      const at = cursorOf(cursor);
      if (choice.segment !== null) {
        const members = toolPath`${listPath(audience)}/segments/${choice.segment}/members?fields=${memberFields}`;
        const path = choice.include.includes('transactional')
          ? toolPath`${members}&include_transactional=true`
          : members;
        const page = await overlappingPage(path, at, "a segment's members");
        return {
          members: page.fresh.filter((member) => statuses.includes(member.status ?? '')).map(memberOf),
          claimed: { of: 'segment', count: page.total },
          ...(page.end ? {} : { next: `segment:${page.next}` }),
        };
      }
      const status = at.scope === 'segment' ? 'subscribed' : at.scope;
      const path = toolPath`${listPath(audience)}/members?status=${status}&fields=${memberFields}`;
      const page = await overlappingPage(path, at, "an audience's members");
      const following = statuses[statuses.indexOf(status) + 1];
      return {
        members: page.fresh.map(memberOf),
        claimed: { of: status, count: page.total },
        ...(!page.end ? { next: `${status}:${page.next}` } : following ? { next: `${following}:0` } : {}),
      };
    },
    async segments(audience) {
      const path = toolPath`${listPath(audience)}/segments?fields=segments.id,segments.name,segments.type,segments.member_count,total_items`;
      const parse = (body: unknown) => http.parse(segmentsAnswer, body, "an audience's segments");
      return (await everyPage(path, parse, 'segments')).map((segment) => ({
        id: String(segment.id),
        name: segment.name,
        kind: segment.type === 'static' ? ('tag' as const) : ('segment' as const),
        size: segment.member_count,
      }));
    },
    scoreKept: (change) => (change === 'score_fields' ? ['score'] : []),
    offersScoreFields: true,
    async prepare(audience, changes) {
      if (changes.has('score_fields')) scoreFieldsOf.set(audience, await readyScoreFields(http, listPath(audience)));
    },
    async apply(audience, change, members, onOutcome) {
      const callOf = callsFor(audience, change);
      if ('words' in callOf) {
        for (const { memberId } of members) onOutcome({ memberId, done: false, words: callOf.words });
        return;
      }
      const queue = [...members];
      const worker = async () => {
        for (let member = queue.shift(); member !== undefined; member = queue.shift()) {
          const { memberId } = member;
          try {
            const call = callOf.call(member);
            await http.call(call.method, call.path, call.body === undefined ? undefined : { json: call.body });
            onOutcome({ memberId, done: true });
          } catch (error) {
            onOutcome({ memberId, done: false, words: memberRefusal(error) });
          }
        }
      };
      await Promise.all(Array.from({ length: Math.min(connectionsAtOnce, members.length) }, worker));
    },
    bulk: {
      from: batchFrom,
      most: batchMost,
      async send(audience, change, members) {
        const callOf = callsFor(audience, change);
        return 'words' in callOf ? undefined : submitBatch(http, members.map(callOf.call));
      },
      collect: (job, onOutcome, signal) => collectBatch(http, job, onOutcome, signal),
    },
    // The score's fields before archiving (an archived member is not written to); archived after its tag is
    // written: the tag says why, and archiving is what Mailchimp undoes by re-adding. A pending member is
    // never planned for archiving: Mailchimp refuses it, 405 "Can not archive a contact that is bounced,
    // pending or archived" (its answer as amro/gibbon#320 quotes it).
    changesFor: ({ result, risky, scored, status }, { withInvalidStep, withScoreFields }) => [
      ...(tagOf[result] ? [`tag:${risky ? 'sift-risky' : tagOf[result]}` as MemberChange] : []),
      ...(withScoreFields && scored ? ['score_fields' as const] : []),
      ...(withInvalidStep && result === 'invalid' && !unarchivable.has(status) ? ['archive' as const] : []),
    ],
    invalidStep: invalidStepOf.mailchimp,
    describe: (change) =>
      change === 'archive'
        ? 'archived (Mailchimp keeps the member, its history and its tags; re-adding them restores them; never deleted)'
        : change === 'score_fields'
          ? 'the score and the day in the fields SIFTSCORE and SIFTDATE (made once where the audience has room; a field Sift did not make is never written)'
          : `the tag ${change.slice(4)} (any other sift tag removed; sent as a sync, so no automation fires)`,
  };
}
