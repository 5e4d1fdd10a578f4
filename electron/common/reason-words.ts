// Verdicts and reasons in the words a marketer uses, wherever Sift shows one: the app, the annotated file
// and the report. A reason Sift does not know is shown as the service sent it; a demo verdict's reason
// never claims a server answered.
import { demoRowNote } from './demo-verdicts.ts';
import { ruleActionOf } from './domain-rules.ts';

const verdictWords: Record<string, string> = {
  valid: 'Valid',
  invalid: 'Invalid',
  catch_all: 'Catch-all',
  unknown: 'Unknown',
  unverified: 'Not checked',
  bad_syntax: 'Bad syntax',
  no_address: 'No address',
  suppressed: 'Suppressed',
  ruled: 'Decided by a rule',
};

/** Said of every reason that blames Sift's own sending machine or address: what it means for the address. */
const saysNothing = 'this says nothing about the address. Not charged.';

const reasons: Record<string, string> = {
  accepted_email: 'The mail server accepts this address.',
  rejected_email: 'The mail server refused this address without saying why.',
  refused_unread:
    "The mail server refused this address in words Sift does not read, and did not show that it tells its mailboxes apart (it may be refusing Sift itself); the server's words are kept. Not charged.",
  refused_mailbox:
    'The mail server refused this address in words Sift does not read, but in the same conversation it refused a made-up address and accepted another of the domain: it tells its mailboxes apart.',
  mailbox_not_found: 'The mail server says this mailbox does not exist.',
  mailbox_disabled: 'The mail server says this mailbox is disabled or closed.',
  invalid_domain: 'This domain cannot receive mail.',
  accept_all_domain: 'This domain accepts every address, so this one cannot be confirmed.',
  accept_all_provider:
    'Its mail provider (Yahoo/AOL, Mail.ru, Microsoft 365 without directory checks) accepts every address when asked and bounces unknown ones later, so this one cannot be confirmed.',
  timeout: 'The mail server did not answer in time.',
  mailbox_full: 'The mailbox is full: it exists, but cannot take mail now. Not charged.',
  no_connect: 'The mail server could not be reached.',
  probe_failed: 'The check could not be made; nothing was charged.',
  invalid_syntax: 'This cannot be an email address.',
  bad_syntax: 'This cannot be an email address.',
  syntax: 'This cannot be an email address.',
  no_address: 'Nothing to check: the address is empty.',
  null_mx: 'This domain says it accepts no mail.',
  greylisted: 'The mail server kept asking to try again later.',
  rate_limited: 'The mail server kept saying Sift was asking too fast. Not charged.',
  sender_blocklisted: `The mail server refused Sift's checking address (it is on a blocklist); ${saysNothing}`,
  sender_reputation: `The mail server refused Sift's checking address for its reputation; ${saysNothing}`,
  sender_reverse_dns: `The mail server refused Sift's checking address: its reverse DNS (PTR) is missing or wrong; ${saysNothing}`,
  sender_helo: `The mail server refused the name Sift gave it (HELO); ${saysNothing}`,
  sender_address: `The mail server refused Sift's MAIL FROM address (its domain, SPF or DMARC); ${saysNothing}`,
  relay_denied: 'The mail server says it does not take mail for this domain; nothing was learned. Not charged.',
  policy: 'The mail server refused to be asked, by its policy; nothing was learned about this address. Not charged.',
  server_error: 'The mail server answered in a way that settles nothing (an error, or a broken reply). Not charged.',
  dropped: 'The mail server hung up before answering.',
  dns_failed: 'The domain could not be looked up.',
  suppressed_address: 'On your do-not-mail list: never sent or kept.',
  suppressed_domain: 'Its domain is on your do-not-mail list: never sent or kept.',
  rule_keep: 'Your rule for its domain: always keep. Never sent or billed.',
  rule_leave_out: 'Your rule for its domain: always leave out. Never sent or billed.',
  rule_never_check: 'Your rule for its domain: never check. Not sent or billed.',
  rule_catch_all: 'Your rule for its domain: treat as catch-all. Not sent or billed.',
  proxy_refused:
    'The proxy live checks go out through refused Sift (its password, or port 25), so this was not checked. Not charged.',
  port_25_blocked:
    'Your network blocks connections to mail servers (port 25), so this could not be checked. Not charged.',
  // What rows written by earlier versions of Sift's service say.
  blocked_by_policy: 'The mail server refused to be asked; nothing was learned about this address.',
  smtp_error: 'The mail server gave an answer that does not settle it.',
  host_busy: 'The mail server was too busy to answer.',
};

/** Reasons that mean the mail server refused Sift itself, not the address: what a blocked sender leaves unknown. */
export const senderRefusalReasons: ReadonlySet<string> = new Set([
  'sender_blocklisted',
  'sender_reputation',
  'sender_reverse_dns',
  'sender_helo',
  'sender_address',
]);

export const verdictWord = (result: string) => verdictWords[result] ?? result;
/** Of unknown addresses counted per reason, those a refused sender left unknown. */
export const senderRefusedCount = (unknownReasons: readonly { reason: string; count: number }[]) =>
  unknownReasons.filter((row) => senderRefusalReasons.has(row.reason)).reduce((sum, row) => sum + row.count, 0);

export const reasonWords = (reason: string | undefined) => (reason ? (reasons[reason] ?? reason) : '');

/** Results Sift decides itself before anything is sent: never a demo, whatever the key. */
const localResults = new Set(['bad_syntax', 'no_address', 'suppressed', 'ruled', 'unverified']);

/** A row's reason in words; for a demo verdict, that it is one (no mail server was asked). */
export function verdictNote(row: { result: string; reason?: string | null | undefined }, demo: boolean): string {
  // A rule's row was decided by Sift before anything was sent: never a demo either.
  if (demo && !localResults.has(row.result) && !ruleActionOf(row.reason)) return demoRowNote;
  return reasonWords(row.reason ?? undefined);
}

/** What sends to a catch-all domain came to, as a score's reason says it. */
export function catchAllEvidenceWords(evidence: {
  domain: string;
  sent: number;
  bounced: number;
  since: number;
  /** Teammates' sends among them. */
  teamSent?: number;
}): string {
  const month = new Date(evidence.since).toLocaleDateString('en', { month: 'long', year: 'numeric', timeZone: 'UTC' });
  const sends = `${evidence.sent.toLocaleString('en')} ${evidence.sent === 1 ? 'send' : 'sends'}`;
  const team = !evidence.teamSent
    ? ''
    : evidence.teamSent === evidence.sent
      ? " (all of them teammates')"
      : ` (${evidence.teamSent.toLocaleString('en')} of them teammates')`;
  return `Catch-all at ${evidence.domain}: ${evidence.bounced.toLocaleString('en')} of ${sends} bounced since ${month}${team}.`;
}
