// HubSpot's CRM API (v3), with a private app's access token (Bearer). Sources, HubSpot's API reference
// (developers.hubspot.com/docs/api-reference, CRM):
// - contacts, all: GET /crm/v3/objects/contacts?limit=100&after=… (cursor paging, `paging.next.after`);
//   a list's: GET /crm/v3/lists/{listId}/memberships?limit=250&after=… (ids), then
//   POST /crm/v3/objects/contacts/batch/read with at most 100 inputs;
// - lists: POST /crm/v3/lists/search;
// - a property group and properties: POST /crm/v3/properties/contacts/groups and /crm/v3/properties/contacts
//   (409 when one of that name is there: found again, not made twice);
// - POST /crm/v3/objects/contacts/batch/update, at most 100 inputs: 200, or 207 with `errors`, each naming
//   the ids it is about in `context.ids` (update-contacts.md: "Provided property values will be overwritten.
//   Read-only and non-existent properties will result in an error").
// - Rate limits: 100 or 190 requests per 10 seconds by tier, answered 429 with `policyName`
//   (TEN_SECONDLY_ROLLING or DAILY), usage-guidelines: paced and waited out as hubspot-limits.ts reads them.
// - a static list (v3 lists): fetched by name at GET /crm/v3/lists/object-type-id/0-1/name/{listName}, made with
//   POST /crm/v3/lists (`processingType: MANUAL`), records added with PUT /crm/v3/lists/{listId}/memberships/add
//   ("Records that do not exist or that are already members of the list are ignored"; its answer names the
//   missing ones), api-reference/…/crm/lists.
// Sift writes only its own properties and its own list, and never a contact's subscription: HubSpot's
// unsubscribe cannot be undone by the sender.
import { z } from 'zod';
import { ConnectorError, invalidStepOf, writtenResults, type Connector, type MemberChange } from './connector.ts';
import { hubspotBounces } from './hubspot-bounces.ts';
import { hubspotLimits } from './hubspot-limits.ts';
import { toolBaseUrl, toolHttp } from './tool-http.ts';
import { checkedId, hubspotRecordId } from './tool-ids.ts';
import { toolPath, type ToolPath } from './tool-path.ts';

/** The pseudo-list of every contact, as `sift audiences` names it. */
const allContacts = 'all';
/** HubSpot's most per batch call, and per page of contacts. */
const batchSize = 100;
/** HubSpot's most per page of a list's memberships. */
const membershipsPerPage = 250;
/** The static list invalid contacts go to, only when the person chooses it. */
const invalidListName = 'Sift: invalid';
const listAnswer = z.object({ list: z.object({ listId: z.union([z.string(), z.number()]) }) });
const addedAnswer = z.object({ recordIdsMissing: z.array(z.union([z.string(), z.number()])).optional() });

const propertyGroup = { name: 'sift', label: 'Sift', displayOrder: -1 };
const properties = [
  {
    name: 'sift_result',
    label: 'Sift: verdict',
    type: 'enumeration',
    fieldType: 'select',
    groupName: 'sift',
    options: writtenResults.map((result, displayOrder) => ({ label: result, value: result, displayOrder })),
  },
  { name: 'sift_score', label: 'Sift: score (0-100)', type: 'number', fieldType: 'number', groupName: 'sift' },
  { name: 'sift_reasons', label: 'Sift: why it scores so', type: 'string', fieldType: 'text', groupName: 'sift' },
  { name: 'sift_checked_at', label: 'Sift: checked on', type: 'date', fieldType: 'date', groupName: 'sift' },
];

const page = z.object({
  results: z.array(z.object({ id: z.string(), properties: z.record(z.string(), z.string().nullish()) })),
  paging: z.object({ next: z.object({ after: z.string() }).optional() }).optional(),
});
const memberships = z.object({
  results: z.array(z.object({ recordId: z.string() })),
  paging: z.object({ next: z.object({ after: z.string() }).optional() }).optional(),
});
const listsAnswer = z.object({
  lists: z.array(
    z.object({
      listId: z.union([z.string(), z.number()]),
      name: z.string(),
      additionalProperties: z.record(z.string(), z.string()).optional(),
    }),
  ),
  hasMore: z.boolean().optional(),
  offset: z.number().optional(),
});
const batchAnswer = z.object({
  errors: z
    .array(
      z.object({
        message: z.string(),
        category: z.string().optional(),
        context: z
          .object({ ids: z.array(z.string()) })
          .partial()
          .optional(),
      }),
    )
    .optional(),
});

export function hubspotConnector(apiUrl: string | undefined, token: string): Connector {
  const base = toolBaseUrl('HubSpot', apiUrl || 'https://api.hubapi.com');
  const http = toolHttp('HubSpot', base, `Bearer ${token}`, token, { limits: hubspotLimits() });
  const contactsOf = (results: z.infer<typeof page>['results']) =>
    results.flatMap((contact) =>
      contact.properties.email
        ? [
            {
              id: checkedId('HubSpot', http.host, hubspotRecordId, contact.id, contact.properties.email),
              email: contact.properties.email,
              name: [contact.properties.firstname, contact.properties.lastname].filter(Boolean).join(' '),
            },
          ]
        : [],
    );
  /** Makes a group or property, or finds it there already (409). */
  const made = async (path: ToolPath, body: unknown) => {
    try {
      await http.call('POST', path, { json: body });
    } catch (error) {
      if (!(error instanceof ConnectorError && error.status === 409)) throw error;
    }
  };
  /** The list "Sift: invalid": found by its name, else made once (a manual list, which only Sift adds to). */
  let invalidListId: Promise<string> | undefined;
  const invalidList = () =>
    (invalidListId ??= (async () => {
      try {
        const path = toolPath`/crm/v3/lists/object-type-id/0-1/name/${invalidListName}`;
        return String(http.parse(listAnswer, (await http.call('GET', path)).body, 'its list').list.listId);
      } catch (error) {
        if (!(error instanceof ConnectorError && error.kind === 'not_found')) throw error;
      }
      const json = { name: invalidListName, objectTypeId: '0-1', processingType: 'MANUAL' };
      const { body } = await http.call('POST', toolPath`/crm/v3/lists`, { json });
      return String(http.parse(listAnswer, body, 'the list it made').list.listId);
    })().catch((error: unknown) => {
      invalidListId = undefined;
      throw error;
    }));
  const addToInvalidList: Connector['apply'] = async (_audience, _change, members, onOutcome) => {
    const listId = await invalidList();
    for (let at = 0; at < members.length; at += batchSize) {
      const ids = members.slice(at, at + batchSize).map((member) => member.memberId);
      const path = toolPath`/crm/v3/lists/${listId}/memberships/add`;
      const { body } = await http.call('PUT', path, { json: ids });
      const missing = new Set((http.parse(addedAnswer, body, 'a list addition').recordIdsMissing ?? []).map(String));
      for (const id of ids)
        onOutcome(
          missing.has(id)
            ? { memberId: id, done: false, words: 'HubSpot: no such contact now' }
            : { memberId: id, done: true },
        );
    }
  };
  return {
    kind: 'hubspot',
    bounces: hubspotBounces(http),
    async check() {
      // Reading one contact proves the token and its contacts scope at once.
      await http.call('GET', toolPath`/crm/v3/objects/contacts?limit=1&properties=email`);
      return `HubSpot at ${http.host}`;
    },
    async audiences() {
      const { body: counted } = await http.call('POST', toolPath`/crm/v3/objects/contacts/search`, {
        json: { limit: 1 },
      });
      const total = http.parse(z.object({ total: z.number() }), counted, 'its contacts');
      const audiences = [{ id: allContacts, name: 'All contacts', size: total.total }];
      for (let offset = 0; ;) {
        const { body } = await http.call('POST', toolPath`/crm/v3/lists/search`, {
          json: { count: 500, offset, processingTypes: ['MANUAL', 'DYNAMIC', 'SNAPSHOT'] },
        });
        const found = http.parse(listsAnswer, body, 'its lists');
        audiences.push(
          ...found.lists.map((list) => ({
            id: String(list.listId),
            name: list.name,
            size: Number(list.additionalProperties?.hs_list_size ?? 0),
          })),
        );
        if (!found.hasMore || found.offset === undefined || found.lists.length === 0) return audiences;
        offset = found.offset;
      }
    },
    async readPage(audience, cursor) {
      const from = (path: ToolPath) => (cursor === undefined ? path : toolPath`${path}&after=${cursor}`);
      if (audience === allContacts) {
        const { body } = await http.call(
          'GET',
          from(toolPath`/crm/v3/objects/contacts?limit=${batchSize}&properties=email,firstname,lastname`),
        );
        const found = http.parse(page, body, 'its contacts');
        return { members: contactsOf(found.results), ...(found.paging?.next ? { next: found.paging.next.after } : {}) };
      }
      // A page of memberships (HubSpot's most, 250), its contacts read 100 at a time (a batch read's most).
      const { body } = await http.call(
        'GET',
        from(toolPath`/crm/v3/lists/${audience}/memberships?limit=${membershipsPerPage}`),
      );
      const listed = http.parse(memberships, body, "a list's members");
      const members = [];
      for (let at = 0; at < listed.results.length; at += batchSize) {
        const { body: read } = await http.call('POST', toolPath`/crm/v3/objects/contacts/batch/read`, {
          json: {
            inputs: listed.results
              .slice(at, at + batchSize)
              .map((each) => ({ id: checkedId('HubSpot', http.host, hubspotRecordId, each.recordId) })),
            properties: ['email', 'firstname', 'lastname'],
          },
        });
        members.push(...contactsOf(http.parse(page, read, 'its contacts').results));
      }
      return { members, ...(listed.paging?.next ? { next: listed.paging.next.after } : {}) };
    },
    async prepare() {
      await made(toolPath`/crm/v3/properties/contacts/groups`, propertyGroup);
      for (const property of properties) await made(toolPath`/crm/v3/properties/contacts`, property);
    },
    scoreKept: () => ['score', 'reasons'],
    // A page of 2,000 changes holds about 500 of each verdict: batches of 100, HubSpot's most.
    writePage: 2_000,
    offersScoreFields: false,
    async apply(audience, change, members, onOutcome) {
      if (change === 'invalid_list') return addToInvalidList(audience, change, members, onOutcome);
      const result = change.startsWith('result:') ? change.slice(7) : undefined;
      if (!result) throw new Error(`HubSpot makes no ${change} change.`);
      const checkedAt = new Date().toISOString().slice(0, 10);
      for (let at = 0; at < members.length; at += batchSize) {
        const batch = members.slice(at, at + batchSize);
        const ids = batch.map((member) => member.memberId);
        const inputs = batch.map((member) => ({
          id: member.memberId,
          properties: {
            sift_result: result,
            sift_score: member.score === null ? '' : String(member.score),
            sift_reasons: member.reasons,
            sift_checked_at: checkedAt,
          },
        }));
        const { body } = await http.call('POST', toolPath`/crm/v3/objects/contacts/batch/update`, { json: { inputs } });
        // A 207 names the contacts it refused; the rest of the batch was written.
        const refused = new Map<string, string>();
        for (const error of http.parse(batchAnswer, body, 'a batch update').errors ?? [])
          for (const id of error.context?.ids ?? []) refused.set(id, `HubSpot: ${error.message}`);
        for (const id of ids)
          onOutcome(
            refused.has(id) ? { memberId: id, done: false, words: refused.get(id)! } : { memberId: id, done: true },
          );
      }
    },
    // A score below the kept one is in sift_score itself: the result stays the verdict.
    changesFor: ({ result }, { withInvalidStep }) => [
      ...((writtenResults as readonly string[]).includes(result) ? [`result:${result}` as MemberChange] : []),
      ...(withInvalidStep && result === 'invalid' ? ['invalid_list' as const] : []),
    ],
    // Never an unsubscribe, which the sender cannot undo: invalid contacts go to a list a person acts on.
    invalidStep: invalidStepOf.hubspot,
    describe: (change) =>
      change === 'invalid_list'
        ? `added to the static list "${invalidListName}" (made once, found again by name; no contact is unsubscribed)`
        : `sift_result set to ${change.slice(7)} (with sift_score, sift_reasons and sift_checked_at), in Sift's own property group`,
  };
}
