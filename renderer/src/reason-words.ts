// Verdicts and reasons in the words a marketer uses, wherever the app shows one. A reason the app does
// not know is shown as the service sent it; a demo verdict's reason never claims a server answered.
import { demoRowNote } from '../../electron/common/demo-verdicts.ts';

const verdictWords: Record<string, string> = {
  valid: 'Valid',
  invalid: 'Invalid',
  catch_all: 'Catch-all',
  unknown: 'Unknown',
  unverified: 'Not checked',
  bad_syntax: 'Bad syntax',
  no_address: 'No address',
  suppressed: 'Suppressed',
};

const reasons: Record<string, string> = {
  accepted_email: 'The mail server accepts this address.',
  rejected_email: 'The mail server says this mailbox does not exist.',
  invalid_domain: 'This domain cannot receive mail.',
  accept_all_domain: 'This domain accepts every address, so this one cannot be confirmed.',
  timeout: 'The mail server did not answer in time.',
  mailbox_full: 'The mailbox is full.',
  no_connect: 'The mail server could not be reached.',
  probe_failed: 'The check could not be made; nothing was charged.',
  invalid_syntax: 'This cannot be an email address.',
  bad_syntax: 'This cannot be an email address.',
  syntax: 'This cannot be an email address.',
  no_address: 'Nothing to check: the address is empty.',
  null_mx: 'This domain says it accepts no mail.',
  greylisted: 'The mail server kept asking to try again later.',
  host_busy: 'The mail server was too busy to answer.',
  blocked_by_policy: 'The mail server refused to be asked; nothing was learned about this address.',
  smtp_error: 'The mail server gave an answer that does not settle it.',
  dropped: 'The mail server hung up before answering.',
  dns_failed: 'The domain could not be looked up.',
  suppressed_address: 'On your do-not-mail list: never sent or kept.',
  suppressed_domain: 'Its domain is on your do-not-mail list: never sent or kept.',
  proxy_refused:
    'The proxy live checks go out through refused Sift (its password, or port 25), so this was not checked. Not charged.',
  port_25_blocked:
    'Your network blocks connections to mail servers (port 25), so this could not be checked. Not charged.',
};

export const verdictWord = (result: string) => verdictWords[result] ?? result;
const reasonWords = (reason: string | undefined) => (reason ? (reasons[reason] ?? reason) : '');

/** Results Sift decides itself before anything is sent: never a demo, whatever the key. */
const localResults = new Set(['bad_syntax', 'no_address', 'suppressed', 'unverified']);

/** A row's reason in words; for a demo verdict, that it is one (no mail server was asked). */
export function verdictNote(row: { result: string; reason?: string | null | undefined }, demo: boolean): string {
  if (demo && !localResults.has(row.result)) return demoRowNote;
  return reasonWords(row.reason ?? undefined);
}
