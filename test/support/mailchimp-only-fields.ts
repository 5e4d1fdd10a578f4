// Mailchimp's `fields=` for the project's Mailchimp test server (mailchimp-server.ts).

/**
 * An answer trimmed to the fields asked for, as Mailchimp's `fields` does: "A comma-separated list of fields
 * to return. Reference parameters of sub-objects with dot notation" (ListMembersListsRequest.ts). A field
 * not asked for is not there, so Sift reads only what it asks for.
 */
export function onlyFields(value: unknown, fields: readonly string[]): unknown {
  if (Array.isArray(value)) return value.map((each) => onlyFields(each, fields));
  if (value === null || typeof value !== 'object') return value;
  const kept: Record<string, unknown> = {};
  for (const [key, inner] of Object.entries(value)) {
    if (fields.includes(key)) kept[key] = inner;
    else {
      const deeper = fields.filter((field) => field.startsWith(`${key}.`)).map((field) => field.slice(key.length + 1));
      if (deeper.length > 0) kept[key] = onlyFields(inner, deeper);
    }
  }
  return kept;
}
