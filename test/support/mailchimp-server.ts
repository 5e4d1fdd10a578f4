// A Mailchimp Marketing API (3.0) of the project's own, for the tests: Mailchimp has no server to run. It
// keeps audiences and members in memory and holds the documented rules Sift must live with, each with its
// source; where the documents name a rule but not its exact answer, the answer is this server's and says so.
// - Basic auth with any user and the key; another key: 401 "API Key Invalid" (Mailchimp's error glossary,
//   https://mailchimp.com/developer/marketing/docs/errors/).
// - `fields=` honoured: an answer holds only the fields asked for (onlyFields).
// - `count` above 1000 refused: "Maximum value is 1000" (mailchimp-marketing-typescript-sdk,
//   src/api/resources/lists/client/requests/ListMembersListsRequest.ts). The 400's words are this server's.
// - More than 10 calls at once refused with 429: "each user account [is limited] to 10 concurrent
//   connections" (Mailchimp's API announcement, http://eepurl.com/4cIXv). Every call takes `delayMs`, so calls
//   overlap as they would over a network, and the most at once is kept.
// - POST …/members/{hash}/tags with `{tags: [{name, status: active|inactive}], is_syncing}`: 204; an unknown
//   member 404 "Resource Not Found" (CreateMemberTagListsRequest.ts; the 404's form as Mailchimp sends it,
//   grouparoo/grouparoo plugins/@grouparoo/mailchimp/__tests__/fixtures/export-profile.js).
// - Members are read one `status` a call (ListMembersListsRequest.ts); segments and tags (static segments)
//   from GET …/segments with each `type` and `member_count` (ListSegmentsListsRequest.ts), their members from
//   GET …/segments/{id}/members with each member's status: cleaned, unsubscribed and transactional members
//   only when `include_cleaned`, `include_unsubscribed` or `include_transactional` asks
//   (ListSegmentMembersListsRequest.ts); archived ones never (this server's reading of those flags).
// - Merge fields (audience fields): GET/POST …/merge-fields (ListMergeFieldsListsRequest.ts,
//   CreateMergeFieldListsRequest.ts); FNAME, LNAME, ADDRESS and PHONE are there when an audience is made
//   (mailchimp.com/developer/marketing/docs/merge-fields/); "up to 30 fields" an audience (kb.mailchimp.com,
//   introduction-to-mailchimp-list-management): a 31st is refused, and a tag already there too (the words of
//   both are this server's). PATCH …/members/{hash} with `merge_fields`: a number field given no number, or a
//   required field the member lacks, answers 400 "Invalid Resource", "Your merge fields were invalid.", with
//   `errors` naming the field ("Please enter a number", "Please enter a value": grouparoo's
//   mailchimpExportContactsById.js fixture, and thehcginstitute-com/m1 issue 507), unless
//   `skip_merge_validation=true` waives the required ones (UpdateMemberListsRequest.ts).
// - Subscribing a member who unsubscribed or was cleaned (PUT or PATCH with status subscribed): 400 "Member
//   In Compliance State", "… is in a compliance state due to unsubscribe, bounce, or compliance review and
//   cannot be subscribed." (the answer public clients of the API test against, e.g. those that fall back to
//   `pending` on it). Sift never sends one: the tests' whole-audience comparisons would show it.
// - Archiving (DELETE a member) of a cleaned, pending or archived member: 405 "Method Not Allowed", "This
//   list member cannot be removed. Can not archive a contact that is bounced, pending or archived" (Mailchimp's
//   answer as amro/gibbon#320 quotes it); of another, its status becomes `archived`. Every write is
//   recorded: Sift makes none but those its plan lists.
// - Batch operations (POST /batches, GET /batches/{id}, the results archive): mailchimp-batches.ts.
import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { chimpBatches } from './mailchimp-batches.ts';
import { defaultFields, madeField, mergeFieldErrors, type ChimpField } from './mailchimp-merge-fields.ts';
import { onlyFields } from './mailchimp-only-fields.ts';
import { reportsAnswer, type ChimpCampaign } from './mailchimp-reports.ts';

export { defaultFields } from './mailchimp-merge-fields.ts';

export type ChimpMember = {
  email: string;
  name: string;
  status: string;
  tags: Set<string>;
  /** Merge field values by tag. */
  fields?: Record<string, string | number>;
  /** When its status last changed (`last_changed`, ISO 8601). */
  lastChanged?: string;
};
type ChimpWrite = { method: string; path: string; body: unknown };
/** A segment (`saved`) or tag (`static`) of an audience: its members' subscriber hashes. */
type ChimpSegment = { name: string; type: 'saved' | 'static'; members: Set<string> };
type ChimpAudience = {
  name: string;
  members: Map<string, ChimpMember>;
  /** By id (Mailchimp's are numbers). */
  segments?: Map<number, ChimpSegment>;
  /** Its merge fields (defaultFields() when not given). */
  mergeFields?: ChimpField[];
};

export type MailchimpServer = {
  url: string;
  key: string;
  /** Members by audience id, then by subscriber hash (the MD5 of the lowercased address). */
  audiences: Map<string, ChimpAudience>;
  /** Sent campaigns by id (mailchimp-reports.ts). */
  campaigns: Map<string, ChimpCampaign>;
  /** Every call that would change something, in order. */
  writes: ChimpWrite[];
  /** Called after each page of an audience's members is answered: the audience changing during a read. */
  afterMembersPage?: (audience: string, offset: number) => void;
  /** The most calls in flight at once. */
  peakConnections: () => number;
  /** How many batches Sift sent (mailchimp-batches.ts). */
  batchesRun: () => number;
  /** Batches sent stay pending until this is turned off again. */
  holdBatches(on: boolean): void;
  /** How often Sift asked how a batch was going: it does once it has kept the batch's id. */
  batchPolls: () => number;
  /** Makes the next call to a path that starts with `prefix` fail `times` times with `status`. */
  failNext(prefix: string, status: number, times: number): void;
  /** How many calls failed as asked. */
  failedCalls: () => number;
  close(): Promise<void>;
};

export const subscriberHash = (email: string) => createHash('md5').update(email.toLowerCase()).digest('hex');

export async function startMailchimp(options: { delayMs?: number } = {}): Promise<MailchimpServer> {
  const key = `${'0123456789abcdef'.repeat(2)}-us99`;
  const audiences: MailchimpServer['audiences'] = new Map();
  const campaigns: MailchimpServer['campaigns'] = new Map();
  const writes: ChimpWrite[] = [];
  const failures: { prefix: string; status: number; times: number }[] = [];
  let failed = 0;
  let inFlight = 0;
  let peak = 0;
  const problem = (response: ServerResponse, status: number, title: string, detail: string) => {
    response.writeHead(status, { 'Content-Type': 'application/problem+json; charset=utf-8' });
    response.end(
      JSON.stringify({ type: 'https://mailchimp.com/developer/marketing/docs/errors/', title, status, detail }),
    );
  };
  /** The `fields=` each call asked for: its answer holds those and no others. */
  const fieldsAsked = new WeakMap<ServerResponse, string[]>();
  const json = (response: ServerResponse, body: unknown) => {
    response.writeHead(200, { 'Content-Type': 'application/json; charset=utf-8' });
    const fields = fieldsAsked.get(response);
    response.end(JSON.stringify(fields ? onlyFields(body, fields) : body));
  };
  const bodyOf = async (request: IncomingMessage) => {
    let text = '';
    for await (const chunk of request) text += chunk;
    return text ? JSON.parse(text) : undefined;
  };
  let origin = '';
  const batchRoutes = chimpBatches(
    (request, response, url) => handle(request, response, url),
    () => origin,
  );
  const handle = async (request: IncomingMessage, response: ServerResponse, url: URL): Promise<void> => {
    // The results of a batch, at a signed address of Mailchimp's storage: no key asked.
    if (await batchRoutes.results(url, response)) return;
    const fields = url.searchParams.get('fields');
    if (fields) fieldsAsked.set(response, fields.split(','));
    // Any user name; the key is the password.
    const given = /^Basic (.+)$/.exec(request.headers.authorization ?? '')?.[1];
    const givenKey = given ? Buffer.from(given, 'base64').toString().split(':').slice(1).join(':') : '';
    if (givenKey !== key)
      return problem(
        response,
        401,
        'API Key Invalid',
        "Your API key may be invalid, or you've attempted to access the wrong datacenter.",
      );
    const failure = failures.find((each) => url.pathname.startsWith(each.prefix) && each.times > 0);
    if (failure) {
      failure.times -= 1;
      failed += 1;
      if (failure.status === 429) response.setHeader('Retry-After', '0');
      return problem(response, failure.status, 'Failure', 'A failure the test asked for.');
    }
    const count = Number(url.searchParams.get('count') ?? 10);
    if (count > 1000)
      return problem(response, 400, 'Invalid Resource', "count: the most is 1000 (this test server's words).");
    const offset = Number(url.searchParams.get('offset') ?? 0);
    const parts = url.pathname
      .replace(/^\/3\.0/, '')
      .split('/')
      .filter(Boolean)
      .map(decodeURIComponent);
    if (parts[0] === 'batches') {
      const given = request.method === 'POST' ? await bodyOf(request) : undefined;
      if (await batchRoutes.handle(request, response, parts, given)) return;
    }
    const memberView = ([id, member]: [string, ChimpMember]) => ({
      id,
      email_address: member.email,
      full_name: member.name,
      status: member.status,
      ...(member.lastChanged ? { last_changed: member.lastChanged } : {}),
    });
    if (request.method === 'GET' && parts.length === 0)
      return json(response, { account_name: 'Sift Test Shop', login_id: '1' });
    if (request.method === 'GET' && parts.length === 1 && parts[0] === 'lists') {
      const all = [...audiences].map(([id, list]) => ({
        id,
        name: list.name,
        stats: { member_count: [...list.members.values()].filter((member) => member.status === 'subscribed').length },
      }));
      return json(response, { lists: all.slice(offset, offset + count), total_items: all.length });
    }
    const report = request.method === 'GET' ? reportsAnswer(campaigns, parts, url) : undefined;
    if (report) {
      if (report.status === 200) return json(response, report.body);
      response.writeHead(report.status, { 'Content-Type': 'application/json; charset=utf-8' });
      return void response.end(JSON.stringify(report.body));
    }
    const list = parts[0] === 'lists' ? audiences.get(parts[1] ?? '') : undefined;
    if (!list) return problem(response, 404, 'Resource Not Found', 'The requested resource could not be found.');
    if (request.method === 'GET' && parts.length === 3 && parts[2] === 'members') {
      const status = url.searchParams.get('status');
      const since = url.searchParams.get('since_last_changed');
      const members = [...list.members].filter(
        ([, member]) =>
          (!status || member.status === status) &&
          (!since || Date.parse(member.lastChanged ?? '1970-01-01T00:00:00Z') > Date.parse(since)),
      );
      json(response, { members: members.slice(offset, offset + count).map(memberView), total_items: members.length });
      chimp.afterMembersPage?.(parts[1]!, offset);
      return;
    }
    if (request.method === 'GET' && parts[2] === 'segments' && parts.length === 3) {
      const all = [...(list.segments ?? [])].map(([id, segment]) => ({
        id,
        name: segment.name,
        type: segment.type,
        member_count: segment.members.size,
      }));
      return json(response, { segments: all.slice(offset, offset + count), total_items: all.length });
    }
    if (request.method === 'GET' && parts[2] === 'segments' && parts[4] === 'members' && parts.length === 5) {
      const segment = list.segments?.get(Number(parts[3]));
      if (!segment) return problem(response, 404, 'Resource Not Found', 'The requested resource could not be found.');
      const shown = (status: string) =>
        status === 'subscribed' || status === 'pending' || url.searchParams.get(`include_${status}`) === 'true';
      const members = [...list.members].filter(([id, member]) => segment.members.has(id) && shown(member.status));
      return json(response, {
        members: members.slice(offset, offset + count).map(memberView),
        total_items: members.length,
      });
    }
    if (parts[2] === 'merge-fields' && parts.length === 3) {
      const fields = (list.mergeFields ??= defaultFields());
      if (request.method === 'GET')
        return json(response, { merge_fields: fields.slice(offset, offset + count), total_items: fields.length });
      const body = (await bodyOf(request)) as ChimpField & { public?: boolean };
      writes.push({ method: request.method!, path: url.pathname, body });
      const made = madeField(fields, body);
      if ('refused' in made) return problem(response, 400, 'Invalid Resource', made.refused);
      fields.push(made.field);
      return json(response, made.field);
    }
    const member = parts[2] === 'members' ? list.members.get(parts[3] ?? '') : undefined;
    if (!member) return problem(response, 404, 'Resource Not Found', 'The requested resource could not be found.');
    const body = request.method === 'GET' ? undefined : await bodyOf(request);
    writes.push({ method: request.method!, path: url.pathname, body });
    if (request.method === 'POST' && parts[4] === 'tags') {
      for (const tag of (body as { tags: { name: string; status: string }[] }).tags) {
        if (tag.status === 'active') member.tags.add(tag.name);
        else member.tags.delete(tag.name);
      }
      response.writeHead(204).end();
      return;
    }
    const asked = body as { status?: string } | undefined;
    if (
      (request.method === 'PATCH' || request.method === 'PUT') &&
      parts.length === 4 &&
      asked?.status === 'subscribed' &&
      ['unsubscribed', 'cleaned'].includes(member.status)
    )
      return problem(
        response,
        400,
        'Member In Compliance State',
        `${member.email} is in a compliance state due to unsubscribe, bounce, or compliance review and cannot be subscribed.`,
      );
    if (request.method === 'PATCH' && parts.length === 4) {
      const given = ((body as { merge_fields?: Record<string, string | number> }).merge_fields ?? {}) as Record<
        string,
        string | number
      >;
      const fields = (list.mergeFields ??= defaultFields());
      const after = { ...member.fields, ...given };
      const errors = mergeFieldErrors(fields, given, after, url.searchParams.get('skip_merge_validation') === 'true');
      if (errors.length > 0) {
        response.writeHead(400, { 'Content-Type': 'application/problem+json; charset=utf-8' });
        response.end(
          JSON.stringify({ title: 'Invalid Resource', status: 400, detail: 'Your merge fields were invalid.', errors }),
        );
        return;
      }
      member.fields = after;
      return json(response, { id: parts[3], email_address: member.email, status: member.status, merge_fields: after });
    }
    if (request.method === 'DELETE' && ['cleaned', 'pending', 'archived'].includes(member.status))
      return problem(
        response,
        405,
        'Method Not Allowed',
        'This list member cannot be removed. Can not archive a contact that is bounced, pending or archived',
      );
    // Archiving: the member is kept, its status `archived` (Mailchimp's API definition: "Archive a list
    // member. To permanently delete, use the delete-permanent action"); 204 with no body.
    if (request.method === 'DELETE' && parts.length === 4) {
      member.status = 'archived';
      response.writeHead(204).end();
      return;
    }
    return problem(response, 400, 'Invalid Resource', 'This test server takes no other change.');
  };
  const server = createServer((request, response) => {
    inFlight += 1;
    peak = Math.max(peak, inFlight);
    const done = () => (inFlight -= 1);
    response.once('close', done);
    const url = new URL(request.url!, 'http://127.0.0.1');
    if (inFlight > 10) {
      return problem(response, 429, 'Too Many Requests', 'You have exceeded the limit of 10 simultaneous connections.');
    }
    setTimeout(() => {
      handle(request, response, url).catch((error: unknown) => problem(response, 500, 'Internal', String(error)));
    }, options.delayMs ?? 5);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  origin = `http://127.0.0.1:${port}`;
  const chimp: MailchimpServer = {
    url: `http://127.0.0.1:${port}/3.0`,
    key,
    audiences,
    campaigns,
    writes,
    peakConnections: () => peak,
    batchesRun: () => batchRoutes.batches.size,
    holdBatches: (on) => batchRoutes.hold(on),
    batchPolls: () => batchRoutes.polls(),
    failNext: (prefix, status, times) => void failures.push({ prefix, status, times }),
    failedCalls: () => failed,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
  return chimp;
}
