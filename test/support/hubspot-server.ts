// HubSpot's CRM API (v3) as the project's own test server: HubSpot has no server to run. Contacts, lists and
// contact properties in memory, with the documented rules Sift must live with, each with its source; where
// the documents name a rule but not its exact answer, the answer is this server's and says so.
// - A private app's token as Bearer; another: 401 INVALID_AUTHENTICATION (HubSpot's error handling docs,
//   developers.hubspot.com/docs/api-reference/error-handling).
// - Batch read and update take at most 100 inputs; more: 400 VALIDATION_ERROR (the CRM batch endpoints'
//   reference, e.g. api-reference/…/contacts/batch/update-contacts.md). Lists of contacts page by at most
//   100, memberships by at most 250 (the lists API reference). The 400's words are this server's.
// - A batch update with ids HubSpot does not have: 207 with `errors`, each with `context.ids`, and the rest
//   written (update-contacts.md). An unknown property: 400 (ibid.: "non-existent properties will result in
//   an error").
// - 100 requests per 10 seconds per app (free and starter; 190 for professional and enterprise), then 429
//   with `policyName` TEN_SECONDLY_ROLLING (developers.hubspot.com/docs/developer-tooling/platform/
//   usage-guidelines); past a day's allowance, 429 with `policyName` DAILY (ibid.). Every answer says the
//   window in X-HubSpot-RateLimit-Max, -Remaining and -Interval-Milliseconds (HubSpot's developer changelog,
//   2018-11-06). A test may shorten the window (`windowMs`) to keep its run short; the rules are the same.
// - CRM search answers at most 10,000 results for a query: paging past them is a 400 ("The search endpoints
//   are limited to 10,000 total results for any given query", developers.hubspot.com/docs/api/crm/search,
//   Limitations, as AWS Glue's HubSpot connector documents it). Reading every contact is the contacts list
//   endpoint's, which has no such cap. The 400's words are this server's.
// - A property or group of a name there already: 409 (the properties API reference). Values written are
//   checked against each property's type and options as HubSpot does (hubspot-values.ts).
// - Search's filters, sorts and properties: hubspot-search.ts.
// - Lists (v3): POST /crm/v3/lists with `name`, `objectTypeId` and `processingType` answers `{ list: { listId,
//   … } }`; GET /crm/v3/lists/object-type-id/{objectTypeId}/name/{listName} fetches one by name (404 when there
//   is none: this server's answer); PUT /crm/v3/lists/{listId}/memberships/add takes an array of record ids,
//   "Records that do not exist or that are already members of the list are ignored", and "only works for
//   lists that have a processingType of MANUAL or SNAPSHOT" (api-reference/…/crm/lists, create-list,
//   get-list, memberships/add-to-list). The answer's recordIdsAdded and recordIdsMissing are its fields.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { searchIds, type SearchBody } from './hubspot-search.ts';
import { builtInTypes, refusedValues, typeOf, type PropertyType } from './hubspot-values.ts';

type HubContact = Record<string, string>;

export type HubspotServer = {
  /** Lists by id; `manual` for a list the API made with processingType MANUAL. */
  url: string;
  token: string;
  contacts: Map<string, HubContact>;
  lists: Map<string, { name: string; members: string[]; manual?: boolean }>;
  groups: Set<string>;
  properties: Set<string>;
  /** Every batch update's inputs, in order. */
  updates: { id: string; properties: HubContact }[][];
  /** How many inputs each batch update asked for, before any rule is checked (refused ones too). */
  updateSizes: number[];
  failNext(prefix: string, status: number, times: number): void;
  failedCalls: () => number;
  /** How many calls were answered 429 for the window or the day. */
  limitedCalls: () => number;
  /** The day turns: the day's allowance (`perDay`) is whole again. */
  newDay(): void;
  close(): Promise<void>;
};

/** A Map that counts its changes, so what is derived from it is made again only when it changed. */
class VersionedMap<K, V> extends Map<K, V> {
  version = 0;
  override set(key: K, value: V) {
    this.version += 1;
    return super.set(key, value);
  }
  override delete(key: K) {
    this.version += 1;
    return super.delete(key);
  }
  override clear() {
    this.version += 1;
    super.clear();
  }
}

export async function startHubspot(
  options: { perTenSeconds?: number; windowMs?: number; perDay?: number; delayMs?: number } = {},
): Promise<HubspotServer> {
  const token = `pat-na1-${'0123456789ab'.repeat(3)}`;
  const contacts = new VersionedMap<string, HubContact>();
  const lists = new Map<string, { name: string; members: string[]; manual?: boolean }>();
  const groups = new Set<string>();
  const properties = new Set<string>(Object.keys(builtInTypes));
  const types = new Map<string, PropertyType>(Object.entries(builtInTypes));
  const updates: HubspotServer['updates'] = [];
  const updateSizes: number[] = [];
  const failures: { prefix: string; status: number; times: number }[] = [];
  const recent: number[] = [];
  const windowMs = options.windowMs ?? 10_000;
  const perWindow = options.perTenSeconds ?? 100;
  let failed = 0;
  let limited = 0;
  let today = 0;
  const send = (response: ServerResponse, status: number, body: unknown) => {
    response.writeHead(status, {
      'Content-Type': 'application/json;charset=utf-8',
      'X-HubSpot-RateLimit-Interval-Milliseconds': String(windowMs),
      'X-HubSpot-RateLimit-Max': String(perWindow),
      'X-HubSpot-RateLimit-Remaining': String(Math.max(0, perWindow - recent.length)),
    });
    response.end(JSON.stringify(body));
  };
  const error = (response: ServerResponse, status: number, category: string, message: string, more = {}) =>
    send(response, status, { status: 'error', message, category, correlationId: 'test', ...more });
  const pageOf = <T>(items: T[], after: string | null, limit: number) => {
    const start = Number(after ?? 0);
    const next = start + limit < items.length ? { paging: { next: { after: String(start + limit) } } } : {};
    return { slice: items.slice(start, start + limit), next };
  };
  // Sorted once per change of the contacts, not per page: a 100,000-contact bench reads 1,000 pages.
  let sorted: { version: number; ids: string[] } | undefined;
  const ids = () => {
    if (sorted?.version !== contacts.version)
      sorted = { version: contacts.version, ids: [...contacts.keys()].sort((a, b) => Number(a) - Number(b)) };
    return sorted.ids;
  };
  const shown = (id: string, wanted: string[]) => ({
    id,
    properties: Object.fromEntries(wanted.map((name) => [name, contacts.get(id)![name] ?? null])),
  });
  const handle = async (request: IncomingMessage, response: ServerResponse) => {
    if (request.headers.authorization !== `Bearer ${token}`)
      return error(response, 401, 'INVALID_AUTHENTICATION', 'Authentication credentials not found.');
    const now = Date.now();
    while (recent.length && recent[0]! <= now - windowMs) recent.shift();
    if (options.perDay !== undefined && today >= options.perDay)
      return (
        (limited += 1),
        error(response, 429, 'RATE_LIMITS', 'You have reached your daily limit.', {
          errorType: 'RATE_LIMIT',
          policyName: 'DAILY',
        })
      );
    if (recent.length >= perWindow)
      return (
        (limited += 1),
        error(response, 429, 'RATE_LIMITS', 'You have reached your ten_secondly_rolling limit.', {
          errorType: 'RATE_LIMIT',
          policyName: 'TEN_SECONDLY_ROLLING',
        })
      );
    recent.push(now);
    today += 1;
    const url = new URL(request.url!, 'http://127.0.0.1');
    const failure = failures.find((each) => url.pathname.startsWith(each.prefix) && each.times > 0);
    if (failure) {
      failure.times -= 1;
      failed += 1;
      return error(response, failure.status, 'RATE_LIMITS', 'You have reached your ten_secondly_rolling limit.', {
        policyName: 'TEN_SECONDLY_ROLLING',
      });
    }
    let text = '';
    for await (const chunk of request) text += chunk;
    const body = text ? JSON.parse(text) : {};
    const path = `${request.method} ${url.pathname}`;
    const limit = Number(url.searchParams.get('limit') ?? 10);
    const tooMany = (inputs: unknown[]) =>
      inputs.length > 100 &&
      (error(response, 400, 'VALIDATION_ERROR', "Batch input is limited to 100 items (this test server's words)."),
      true);
    if (path === 'GET /crm/v3/objects/contacts') {
      if (limit > 100)
        return error(response, 400, 'VALIDATION_ERROR', "limit: at most 100 (this test server's words).");
      const { slice, next } = pageOf(ids(), url.searchParams.get('after'), limit);
      const wanted = (url.searchParams.get('properties') ?? 'email').split(',');
      return send(response, 200, { results: slice.map((id) => shown(id, wanted)), ...next });
    }
    if (path === 'POST /crm/v3/objects/contacts/search') {
      const searchLimit = Number(body.limit ?? 10);
      const from = Number(body.after ?? 0);
      if (searchLimit > 200 || from + searchLimit > 10_000)
        return error(
          response,
          400,
          'VALIDATION_ERROR',
          "Search results are capped at 10,000 (this test server's words).",
        );
      const found = searchIds(ids(), contacts, body as SearchBody);
      if (typeof found === 'string') return error(response, 400, 'VALIDATION_ERROR', found);
      const { slice, next } = pageOf(found, String(from), searchLimit);
      const wanted = (body as SearchBody).properties ?? ['email'];
      return send(response, 200, { total: found.length, results: slice.map((id) => shown(id, wanted)), ...next });
    }
    if (path === 'POST /crm/v3/lists/search') {
      const all = [...lists].map(([listId, list]) => ({
        listId,
        name: list.name,
        additionalProperties: { hs_list_size: String(list.members.length) },
      }));
      // Paged by `count` (at most 500) from `offset`, as the lists search is (api-reference/…/crm/lists,
      // search-lists: `offset`, `count`; the answer's `hasMore` and next `offset`).
      const count = Math.min(Number(body.count ?? 20), 500);
      const offset = Number(body.offset ?? 0);
      const page = all.slice(offset, offset + count);
      const hasMore = offset + page.length < all.length;
      return send(response, 200, { lists: page, hasMore, offset: offset + page.length, total: all.length });
    }
    const byName = /^GET \/crm\/v3\/lists\/object-type-id\/0-1\/name\/(.+)$/.exec(path);
    if (byName) {
      const name = decodeURIComponent(byName[1]!);
      const found = [...lists].find(([, list]) => list.name === name);
      if (!found) return error(response, 404, 'OBJECT_NOT_FOUND', `No list named ${name}.`);
      return send(response, 200, {
        list: { listId: found[0], name, processingType: found[1].manual ? 'MANUAL' : 'DYNAMIC' },
      });
    }
    if (path === 'POST /crm/v3/lists') {
      if (body.objectTypeId !== '0-1' || !body.name || !body.processingType)
        return error(
          response,
          400,
          'VALIDATION_ERROR',
          "name, objectTypeId and processingType are needed (this test server's words).",
        );
      if ([...lists.values()].some((list) => list.name === body.name))
        return error(response, 400, 'VALIDATION_ERROR', `A list named ${body.name} exists (this test server's words).`);
      const listId = String(1000 + lists.size);
      lists.set(listId, { name: body.name, members: [], manual: body.processingType === 'MANUAL' });
      return send(response, 200, { list: { listId, name: body.name, processingType: body.processingType } });
    }
    const adding = /^PUT \/crm\/v3\/lists\/([^/]+)\/memberships\/add$/.exec(path);
    if (adding) {
      const list = lists.get(adding[1]!);
      if (!list) return error(response, 404, 'OBJECT_NOT_FOUND', 'List not found.');
      if (!list.manual) return error(response, 400, 'VALIDATION_ERROR', 'Only MANUAL or SNAPSHOT lists take records.');
      const recordIds = (body as string[]).map(String);
      const recordIdsAdded = recordIds.filter((id) => contacts.has(id) && !list.members.includes(id));
      list.members.push(...recordIdsAdded);
      return send(response, 200, { recordIdsAdded, recordIdsMissing: recordIds.filter((id) => !contacts.has(id)) });
    }
    const members = /^GET \/crm\/v3\/lists\/([^/]+)\/memberships$/.exec(path);
    if (members) {
      const list = lists.get(members[1]!);
      if (!list) return error(response, 404, 'OBJECT_NOT_FOUND', 'List not found.');
      if (limit > 250)
        return error(response, 400, 'VALIDATION_ERROR', "limit: at most 250 (this test server's words).");
      const { slice, next } = pageOf(list.members, url.searchParams.get('after'), limit);
      return send(response, 200, { results: slice.map((recordId) => ({ recordId })), ...next });
    }
    if (path === 'POST /crm/v3/objects/contacts/batch/read') {
      if (tooMany(body.inputs)) return;
      const found = (body.inputs as { id: string }[]).filter((input) => contacts.has(input.id));
      return send(response, 200, {
        status: 'COMPLETE',
        results: found.map((input) => shown(input.id, body.properties)),
      });
    }
    if (path === 'POST /crm/v3/properties/contacts/groups' || path === 'POST /crm/v3/properties/contacts') {
      const kept = path.endsWith('groups') ? groups : properties;
      if (kept.has(body.name)) return error(response, 409, 'OBJECT_ALREADY_EXISTS', `${body.name} already exists.`);
      if (!path.endsWith('groups') && !groups.has(body.groupName))
        return error(response, 400, 'VALIDATION_ERROR', `No property group ${body.groupName}.`);
      kept.add(body.name);
      if (!path.endsWith('groups')) types.set(body.name, typeOf(body));
      return send(response, 201, body);
    }
    if (path === 'POST /crm/v3/objects/contacts/batch/update') {
      const inputs = body.inputs as { id: string; properties: HubContact }[];
      updateSizes.push(inputs.length);
      if (tooMany(inputs)) return;
      const unknown = inputs.flatMap((input) => Object.keys(input.properties)).filter((name) => !properties.has(name));
      if (unknown.length)
        return error(
          response,
          400,
          'VALIDATION_ERROR',
          `Property values were not valid: ${unknown[0]} does not exist.`,
        );
      const refused = refusedValues(inputs, types);
      if (refused) return error(response, 400, 'VALIDATION_ERROR', refused);
      updates.push(inputs);
      const missing = inputs.filter((input) => !contacts.has(input.id)).map((input) => input.id);
      for (const input of inputs) if (contacts.has(input.id)) Object.assign(contacts.get(input.id)!, input.properties);
      const results = inputs
        .filter((input) => contacts.has(input.id))
        .map((input) => shown(input.id, Object.keys(input.properties)));
      if (missing.length === 0) return send(response, 200, { status: 'COMPLETE', results });
      return send(response, 207, {
        status: 'COMPLETE',
        results,
        numErrors: 1,
        errors: [
          {
            status: 'error',
            category: 'OBJECT_NOT_FOUND',
            message: 'Could not get some CONTACT objects, they may be deleted or not exist. Check that ids are valid.',
            context: { ids: missing },
          },
        ],
      });
    }
    return error(response, 404, 'OBJECT_NOT_FOUND', `No route ${path} on this test server.`);
  };
  // Each call answered after `delayMs`, as over a network (none unless asked).
  const server = createServer((request, response) => {
    setTimeout(() => {
      handle(request, response).catch((cause: unknown) => error(response, 500, 'INTERNAL', String(cause)));
    }, options.delayMs ?? 0);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    token,
    contacts,
    lists,
    groups,
    properties,
    updates,
    updateSizes,
    failNext: (prefix, status, times) => void failures.push({ prefix, status, times }),
    failedCalls: () => failed,
    limitedCalls: () => limited,
    newDay: () => void (today = 0),
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
