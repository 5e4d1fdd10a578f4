// A member's id as each tool documents it, checked as it is read: an id Sift writes back with must be the
// tool's own, never a path, never a formula, never someone else's.
// - Mailchimp: a member's `id` is its subscriber_hash, "The MD5 hash of the lowercase version of the list
//   member's email address" (mailchimp-marketing-typescript-sdk, CreateMemberTagListsRequest.ts).
// - HubSpot: a record's `id` is its numeric record id, given as a string (CRM objects API, "hs_object_id").
// - Mailman 3 (REST API 3.1): a member's `member_id` is its UUID as hex, where 3.0 gave a 128-bit integer
//   ("The only difference is the way UUIDs are represented", Mailman core's REST docs, basic.html).
import { createHash } from 'node:crypto';
import { withoutControls } from '../../common/terminal-text.ts';
import { ConnectorError } from './connector.ts';

/** An id's documented form; `of`: the id an address must have, where the tool derives it from the address. */
export type IdForm = { readonly pattern: RegExp; readonly words: string; readonly of?: (email: string) => string };

/** Mailchimp's id for an address: the only id its member may have. */
const subscriberHashOf = (email: string) => createHash('md5').update(email.toLowerCase()).digest('hex');

export const mailchimpMemberId: IdForm = {
  pattern: /^[0-9a-f]{32}$/,
  words: 'the MD5 of the lower-cased address, 32 hex digits',
  of: subscriberHashOf,
};
export const hubspotRecordId: IdForm = { pattern: /^[1-9][0-9]{0,19}$/, words: 'a number' };
export const mailmanMemberId: IdForm = { pattern: /^[0-9a-f]{32}$/, words: "the member's UUID in 32 hex digits" };

/** `id` as the tool's answer gave it, refused in words (the whole read stops) when it is not of the form. */
export function checkedId(tool: string, host: string, form: IdForm, id: string, email?: string): string {
  if (form.pattern.test(id) && (form.of === undefined || email === undefined || form.of(email) === id)) return id;
  const shown = JSON.stringify(withoutControls(id.slice(0, 60)));
  throw new ConnectorError(
    'refused',
    `${tool} at ${host} answered a member id Sift will not write by (${shown}${email ? ` for ${withoutControls(email.slice(0, 254))}` : ''}): ${tool}'s ids are ${form.words}. Nothing was written.`,
  );
}
