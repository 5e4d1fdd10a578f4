// The fields of a delivery status notification's `message/delivery-status` part, as RFC 3464 §2.1 lays
// them out: header-style fields ("Name: value", continued on lines that start with white space), one
// group for the message and then one group per recipient, groups separated by a blank line.
// https://www.rfc-editor.org/rfc/rfc3464#section-2.1

/** One group: field names lower-cased, each value unfolded and trimmed (the first of a repeated name wins). */
export type FieldGroup = ReadonlyMap<string, string>;

export function fieldGroups(text: string): FieldGroup[] {
  const groups: Map<string, string>[] = [];
  let group = new Map<string, string>();
  let last: string | undefined;
  for (const line of text.replace(/\r\n?/g, '\n').split('\n')) {
    if (line.trim() === '') {
      if (group.size > 0) groups.push(group);
      group = new Map();
      last = undefined;
      continue;
    }
    if (/^[ \t]/.test(line) && last !== undefined) {
      group.set(last, `${group.get(last)} ${line.trim()}`.trim());
      continue;
    }
    const colon = line.indexOf(':');
    if (colon <= 0) continue; // not a field: RFC 3464 has no other kind of line
    const name = line.slice(0, colon).trim().toLowerCase();
    last = name;
    if (!group.has(name)) group.set(name, line.slice(colon + 1).trim());
    else last = undefined;
  }
  if (group.size > 0) groups.push(group);
  return groups;
}

/**
 * A typed field's value without its type: `rfc822; ann@example.com` → `ann@example.com`,
 * `smtp; 550 5.1.1 …` → `550 5.1.1 …` (RFC 3464 §2.3.2, §2.3.6: "address-type ; generic-address",
 * "diagnostic-type ; *text"), with the address's angle brackets taken off.
 */
export function typedValue(value: string | undefined): { type: string; value: string } | undefined {
  if (value === undefined) return undefined;
  const semicolon = value.indexOf(';');
  if (semicolon < 0) return { type: '', value: value.trim() };
  return { type: value.slice(0, semicolon).trim().toLowerCase(), value: value.slice(semicolon + 1).trim() };
}
