// The HubSpot test server's CRM search, as far as Sift uses it (developers.hubspot.com/docs/api/crm/search):
// `filterGroups` are ORed and the filters in one group ANDed, "up to five filterGroups with up to 6 filters
// in each group" (more: 400, this server's words); the operators EQ, NEQ, GT, GTE, LT, LTE, HAS_PROPERTY and
// NOT_HAS_PROPERTY; a date or datetime property compared in milliseconds since the epoch ("use the UNIX
// timestamp in milliseconds" for date values), whatever form the property is kept in; `sorts` by one
// property, ASCENDING or DESCENDING; the answer's properties those `properties` names (default: email).

type Filter = { propertyName: string; operator: string; value?: string };
export type SearchBody = {
  filterGroups?: { filters: Filter[] }[];
  sorts?: { propertyName: string; direction?: string }[];
  properties?: string[];
};

const asNumber = (value: string) => (/^\d+$/.test(value) ? Number(value) : Date.parse(value));

function matches(contact: Record<string, string>, filter: Filter): boolean {
  const value = contact[filter.propertyName];
  if (filter.operator === 'HAS_PROPERTY') return value !== undefined && value !== '';
  if (filter.operator === 'NOT_HAS_PROPERTY') return value === undefined || value === '';
  if (value === undefined) return false;
  const wanted = filter.value ?? '';
  if (filter.operator === 'EQ') return value === wanted;
  if (filter.operator === 'NEQ') return value !== wanted;
  const [a, b] = [asNumber(value), asNumber(wanted)];
  if (filter.operator === 'GT') return a > b;
  if (filter.operator === 'GTE') return a >= b;
  if (filter.operator === 'LT') return a < b;
  if (filter.operator === 'LTE') return a <= b;
  throw new Error(`This test server knows no operator ${filter.operator}.`);
}

/** The ids a search finds, in its order; a refusal's words when the body asks for too much. */
export function searchIds(
  ids: readonly string[],
  contacts: ReadonlyMap<string, Record<string, string>>,
  body: SearchBody,
): string[] | string {
  const groups = body.filterGroups ?? [];
  if (groups.length > 5 || groups.some((group) => group.filters.length > 6))
    return "At most 5 filterGroups of 6 filters each (this test server's words).";
  let found = ids.filter(
    (id) =>
      groups.length === 0 ||
      groups.some((group) => group.filters.every((filter) => matches(contacts.get(id)!, filter))),
  );
  const sort = body.sorts?.[0];
  if (sort) {
    const key = (id: string) => asNumber(contacts.get(id)![sort.propertyName] ?? '0');
    found = [...found].sort((a, b) => key(a) - key(b) || Number(a) - Number(b));
    if (sort.direction === 'DESCENDING') found.reverse();
  }
  return found;
}
