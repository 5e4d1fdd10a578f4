// What a mail server's reply says, read by its words and its codes together. Its words first (the table
// in reply-patterns.ts): servers refuse a blocklisted prober with a bare 550 and a sentence that blames
// the sender, and such a reply says nothing about the mailbox whatever its code. Then the enhanced status
// code (RFC 3463) wherever the text carries it, `(#5.1.1)` included, then the basic code (RFC 5321 §4.2).
// A table only knows what it has seen, so the rule for the rest is the safe one: an address is `invalid`
// only when the words or the enhanced code say the mailbox does not exist or is closed. A refusal in words
// Sift cannot read is `refused_unread` (unknown, never billed), unless the same server showed in the same
// conversation that it tells mailboxes apart (domain-prober.ts).
import { senderRefusalReasons } from '../../../../common/reason-words.ts';
import { askAloneWords, replyPatterns, type ReplyReason } from './reply-patterns.ts';
import type { SmtpReply } from './smtp-session.ts';

type RejectReason = 'mailbox_not_found' | 'mailbox_disabled';

export type ReplyMeaning = (
  | { kind: 'accepted' }
  /** The mailbox does not exist or is closed: `invalid`. */
  | { kind: 'rejected'; reason: RejectReason }
  /** Refused in words Sift cannot read and with no mailbox code: `unknown` unless the server tells mailboxes apart. */
  | { kind: 'unread'; reason: 'refused_unread' }
  /** Try again later, on the greylisting schedule; `reason` is what the address gets if it never settles. */
  | { kind: 'deferred'; reason: ReplyReason }
  /** A 421, or a rate reply: the whole host backs off. */
  | { kind: 'busy'; reason: ReplyReason }
  /** The server takes this recipient only in a transaction of its own: ask it again in a new conversation. */
  | { kind: 'alone' }
  /** A definite answer that does not settle whether the mailbox exists: `unknown`, never billed. */
  | { kind: 'unclear'; reason: ReplyReason }
) & {
  /** The reply is about Sift's sending machine or address, not the mailbox asked about. */
  blamesSender?: boolean;
};

/** The command a reply answers: before any recipient, a refusal can only be of the sender. */
export type ReplyStage = 'greeting' | 'ehlo' | 'mail' | 'rcpt';

/** An enhanced status code anywhere in the text, of the reply's own class; not the start of an IP address. */
const enhancedAnywhere = /(?<![\d.])([245])\.(\d{1,3})\.(\d{1,3})(?![\d]|\.\d)/g;

export function enhancedCodeOf(reply: SmtpReply): string | undefined {
  if (reply.enhanced) return reply.enhanced;
  const klass = String(reply.code)[0];
  for (const match of reply.text.matchAll(enhancedAnywhere)) {
    if (match[1] === klass) return `${match[1]}.${match[2]}.${match[3]}`;
  }
  return undefined;
}

/**
 * RFC 5321's own text for a 550 ("Requested action not taken: mailbox unavailable"): the generic phrase a
 * server puts on its first line whatever the reason its last line gives.
 */
const genericPhrase = /(requested action not taken:?\s*)?mailbox (is )?unavailable/gi;

/**
 * What the words say, every line of the reply read: a specific reason anywhere wins over the generic phrase,
 * which counts only when nothing else does ("550-Mailbox unavailable / 550 Your domain has no MX record" is
 * about the sender).
 */
function reasonInWords(text: string): ReplyReason | undefined {
  const find = (words: string) => replyPatterns.find((pattern) => pattern.words.test(words))?.reason;
  return find(text.replace(genericPhrase, ' ')) ?? find(text);
}

/** Who a reply is to be read about: the recipient asked, and Sift's own MAIL FROM. */
/**
 * Whom a reply answers about: the recipient asked (and its other names: a bounce's Original- and
 * Final-Recipient, before and after an alias), and the sender when it is known.
 */
export type AskedAbout = { recipient: string; alsoKnownAs?: readonly string[]; sender?: string };

/** The addresses a reply names in angle or square brackets, as servers quote them. */
const namedAddresses = (text: string) =>
  [...text.matchAll(/[<[]([^<>[\]\s@]+@[^<>[\]\s]+)[>\]]/g)].map((match) => match[1]!.toLowerCase());

/**
 * Whom a refusal names, when it is not the recipient asked: Sift's own address (then it is about the sender)
 * or another (then it is about neither this mailbox nor settled); undefined when it names the recipient or
 * no address at all. A 550 5.1.1 "<bounce@sift.example>: … User unknown" is about Sift's return path.
 */
function namesAnother(reply: SmtpReply, asked: AskedAbout | undefined): 'sender' | 'other' | undefined {
  // A 551 names the forward-path to try instead (RFC 5321 §3.4): about the recipient, not another.
  if (!asked || reply.code === 551) return undefined;
  const named = namedAddresses(reply.text);
  const own = [asked.recipient, ...(asked.alsoKnownAs ?? [])].map((address) => address.toLowerCase());
  if (named.length === 0 || own.some((address) => named.includes(address))) return undefined;
  return asked.sender && named.includes(asked.sender.toLowerCase()) ? 'sender' : 'other';
}

/**
 * The enhanced codes that are about the address itself (RFC 3463 §3.2, §3.3; RFC 7505 for X.1.10): bad
 * mailbox, bad destination system, bad mailbox syntax, moved with no forwarding address, a null MX
 * recipient, disabled.
 */
function mailboxCodeReason(enhanced: string | undefined): RejectReason | undefined {
  const [, subject, detail] = enhanced?.split('.').map(Number) ?? [];
  if (subject === 1 && [1, 2, 3, 6, 10].includes(detail!)) return 'mailbox_not_found';
  if (subject === 2 && detail === 1) return 'mailbox_disabled';
  return undefined;
}

/** What the codes alone say, for a reply whose words match no pattern. */
function reasonFromCodes(code: number, enhanced: string | undefined): ReplyReason | 'refused_unread' {
  const [, subject, detail] = enhanced?.split('.').map(Number) ?? [];
  const mailbox = mailboxCodeReason(enhanced);
  if (mailbox) return mailbox;
  if (subject === 1 && (detail === 7 || detail === 8)) return 'sender_address';
  if ((subject === 2 && detail === 2) || code === 552) return 'mailbox_full';
  // A 4.7.x in words Sift cannot read waits on the greylisting schedule: only a reply that says it is about
  // the pace starts pace probing (a refusal of the sender that never lets up must still end).
  if (subject === 7) return code === 421 ? 'rate_limited' : code >= 500 ? 'policy' : 'greylisted';
  if (code === 421) return 'rate_limited';
  if (code === 452 && subject === 5 && detail === 3) return 'rate_limited';
  if (code >= 400 && code < 500) return 'greylisted';
  // A 5xx Sift cannot read: not evidence about the mailbox (a server refusing the prober refuses every address).
  if (code >= 550 && code < 560) return 'refused_unread';
  return 'server_error';
}

/**
 * Words that settle nothing, which a permanent mailbox code overrides ("550 5.1.1 try later"). Policy words
 * ("blocked", "access denied") do not give way: they may be about the sender.
 */
const vagueReasons: ReadonlySet<ReplyReason> = new Set(['server_error', 'greylisted']);

/** What a reply to RCPT TO says about the address asked (`asked`: whom; a reply naming another is not about it). */
export function meaningOf(reply: SmtpReply, asked?: AskedAbout): ReplyMeaning {
  const { code } = reply;
  if (code === 250 || code === 251) return { kind: 'accepted' };
  const temporary = code >= 400 && code < 500;
  if (temporary && askAloneWords.words.test(reply.text)) return { kind: 'alone' };
  const enhanced = enhancedCodeOf(reply);
  const words = reasonInWords(reply.text);
  // A temporary reply's words stand ("452 4.1.1 too many recent messages; try again later").
  const byCode = code >= 500 ? mailboxCodeReason(enhanced) : undefined;
  const read = words && !(byCode && vagueReasons.has(words)) ? words : reasonFromCodes(code, enhanced);
  if (read === 'refused_unread') return { kind: 'unread', reason: read };
  // A mailbox reason about an address that is not the one asked: never this recipient's mailbox.
  const other = mailboxReasons.has(read) ? namesAnother(reply, asked) : undefined;
  if (other === 'sender')
    return temporary
      ? { kind: 'deferred', reason: 'sender_address', blamesSender: true }
      : { kind: 'unclear', reason: 'sender_address', blamesSender: true };
  if (other === 'other')
    return temporary ? { kind: 'deferred', reason: 'policy' } : { kind: 'unclear', reason: 'policy' };
  if (senderRefusalReasons.has(read)) {
    // Turned away for who we are: a temporary one waits on the greylisting schedule like any deferral
    // (it is not a rate reply, so no pace is probed); neither is ever `invalid`.
    return temporary
      ? { kind: 'deferred', reason: read, blamesSender: true }
      : { kind: 'unclear', reason: read, blamesSender: true };
  }
  if (read === 'mailbox_not_found' || read === 'mailbox_disabled') {
    return temporary
      ? { kind: 'deferred', reason: read }
      : code >= 500
        ? { kind: 'rejected', reason: read }
        : unclear();
  }
  // A full mailbox is not emptied by the greylisting schedule: said at once, whatever the code.
  if (read === 'mailbox_full' || read === 'relay_denied') return { kind: 'unclear', reason: read };
  if (!temporary) return code >= 500 ? { kind: 'unclear', reason: read } : unclear();
  if (code === 421 || read === 'rate_limited')
    return { kind: 'busy', reason: read === 'greylisted' ? 'rate_limited' : read };
  return { kind: 'deferred', reason: read };
}

const unclear = (): ReplyMeaning => ({ kind: 'unclear', reason: 'server_error' });

const mailboxReasons: ReadonlySet<ReplyReason> = new Set(['mailbox_not_found', 'mailbox_disabled', 'mailbox_full']);

/**
 * Whether a refusal is of the sender (this machine's address, its name, a blocklist it is on) rather than
 * one recipient. Before any recipient was named (the greeting, EHLO, MAIL FROM), any refusal can only be
 * of us, whatever its code or words; a rate reply there is about our pace, not who we are.
 */
export function refusesSender(reply: SmtpReply, beforeRecipients: boolean, asked?: AskedAbout): boolean {
  if (reply.code < 400 || reply.code >= 600) return false;
  if (beforeRecipients) return meaningOf(reply).kind !== 'busy';
  return meaningOf(reply, asked).blamesSender === true;
}

/**
 * The reason a refusal before any recipient gives every address: what its words blame, else our address
 * at MAIL FROM, else the server's policy. Never a mailbox reason: no mailbox was asked about.
 */
export function refusalReason(reply: SmtpReply, stage: ReplyStage): ReplyReason {
  const meaning = meaningOf(reply);
  if (meaning.blamesSender && 'reason' in meaning) return meaning.reason as ReplyReason;
  return stage === 'mail' ? 'sender_address' : 'policy';
}

/** The reply as a row keeps it: code, enhanced code and text, on one line and not too long. */
export function replyLine(reply: SmtpReply): string {
  const line = `${reply.code} ${reply.text}`.replace(/\s+/g, ' ').trim();
  return line.length > 300 ? `${line.slice(0, 297)}...` : line;
}
