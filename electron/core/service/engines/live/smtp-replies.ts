// What a mail server's reply says, read by its words and its codes together. Its words first (the table
// in reply-patterns.ts): servers refuse a blocklisted prober with a bare 550 and a sentence that blames
// the sender, and such a reply says nothing about the mailbox whatever its code. Then the enhanced status
// code (RFC 3463) wherever the text carries it, `(#5.1.1)` included, then the basic code (RFC 5321 §4.2).
import { senderRefusalReasons } from '../../../../common/reason-words.ts';
import { replyPatterns, type ReplyReason } from './reply-patterns.ts';
import type { SmtpReply } from './smtp-session.ts';

type RejectReason = 'mailbox_not_found' | 'mailbox_disabled' | 'rejected_email';

export type ReplyMeaning = (
  | { kind: 'accepted' }
  /** The mailbox does not exist or is closed: `invalid`. */
  | { kind: 'rejected'; reason: RejectReason }
  /** Try again later, on the greylisting schedule; `reason` is what the address gets if it never settles. */
  | { kind: 'deferred'; reason: ReplyReason }
  /** A 421, or a rate reply: the whole host backs off. */
  | { kind: 'busy'; reason: ReplyReason }
  /** A definite answer that does not settle whether the mailbox exists: `unknown`, never billed. */
  | { kind: 'unclear'; reason: ReplyReason }
) & {
  /** The reply is about Sift's sending machine or address, not the mailbox asked about. */
  blamesSender?: boolean;
};

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

function reasonInWords(text: string): ReplyReason | undefined {
  return replyPatterns.find((pattern) => pattern.words.test(text))?.reason;
}

/** What the codes alone say, for a reply whose words match no pattern. */
function reasonFromCodes(code: number, enhanced: string | undefined): ReplyReason | 'rejected_email' {
  const [, subject, detail] = enhanced?.split('.').map(Number) ?? [];
  if (subject === 1 && (detail === 7 || detail === 8)) return 'sender_address';
  if (subject === 1 && code >= 500) return 'mailbox_not_found';
  if (subject === 2 && detail === 1) return 'mailbox_disabled';
  if ((subject === 2 && detail === 2) || code === 552) return 'mailbox_full';
  if (subject === 7) return code === 421 || code === 450 ? 'rate_limited' : code >= 500 ? 'policy' : 'greylisted';
  if (code === 421) return 'rate_limited';
  if (code === 452 && subject === 5 && detail === 3) return 'rate_limited';
  if (code >= 400 && code < 500) return 'greylisted';
  if (code === 550 || code === 551 || code === 553) return 'rejected_email';
  return 'server_error';
}

export function meaningOf(reply: SmtpReply): ReplyMeaning {
  const { code } = reply;
  if (code === 250 || code === 251) return { kind: 'accepted' };
  const read = reasonInWords(reply.text) ?? reasonFromCodes(code, enhancedCodeOf(reply));
  const temporary = code >= 400 && code < 500;
  if (read === 'rejected_email') return { kind: 'rejected', reason: read };
  if (senderRefusalReasons.has(read)) {
    // Turned away for who we are: a temporary one slows the host like a rate reply; neither is ever `invalid`.
    return temporary
      ? { kind: 'busy', reason: read, blamesSender: true }
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

/**
 * Whether a refusal is of the sender (this machine's address, its name, a blocklist it is on) rather than
 * one recipient. Before any recipient was named, a permanent refusal can only be of us.
 */
export function refusesSender(reply: SmtpReply, beforeRecipients: boolean): boolean {
  if (beforeRecipients && reply.code >= 500 && reply.code < 600) return true;
  return meaningOf(reply).blamesSender === true;
}

/** The reason a refusal before any recipient gives every address: the sender's, or the server's policy. */
export function refusalReason(reply: SmtpReply): ReplyReason {
  const meaning = meaningOf(reply);
  return meaning.blamesSender && meaning.kind !== 'accepted' ? (meaning.reason as ReplyReason) : 'policy';
}

/** The reply as a row keeps it: code, enhanced code and text, on one line and not too long. */
export function replyLine(reply: SmtpReply): string {
  const line = `${reply.code} ${reply.text}`.replace(/\s+/g, ' ').trim();
  return line.length > 300 ? `${line.slice(0, 297)}...` : line;
}
