// What a mail server's reply to RCPT TO says about the address. Basic codes (RFC 5321 §4.2) and, where
// the server gives one, the enhanced status code (RFC 3463): x.1.x is about the address itself, x.7.x
// about policy (a server refusing to talk to us says nothing about the mailbox).
import type { SmtpReply } from './smtp-session.ts';

export type ReplyMeaning =
  | { kind: 'accepted' }
  | { kind: 'rejected'; reason: 'rejected_email' }
  /** Try again later: greylisting, a full queue, a passing fault. */
  | { kind: 'deferred' }
  /** 421, or a 450 4.7.x rate reply ("too many recipients"): the whole host backs off. */
  | { kind: 'busy' }
  /** A definite answer that does not settle whether the mailbox exists. */
  | { kind: 'unclear'; reason: 'blocked_by_policy' | 'mailbox_full' | 'smtp_error' };

export function meaningOf(reply: SmtpReply): ReplyMeaning {
  const { code, enhanced } = reply;
  // Postfix's anvil limits say "450 4.7.1 Error: too many recipients from ..."; greylisting says 450 4.2.0
  // (postgrey) or 451: only the 450 with a policy code asks the whole host to slow down.
  if (code === 421 || (code === 450 && enhanced?.startsWith('4.7.'))) return { kind: 'busy' };
  if (code === 250 || code === 251) return { kind: 'accepted' };
  if (code >= 400 && code < 500) return { kind: 'deferred' };
  if (code >= 500 && code < 600) {
    if (enhanced?.startsWith('5.7.')) return { kind: 'unclear', reason: 'blocked_by_policy' };
    if (enhanced === '5.2.2' || code === 552) return { kind: 'unclear', reason: 'mailbox_full' };
    if (code === 550 || code === 551 || code === 553 || enhanced?.startsWith('5.1.')) {
      return { kind: 'rejected', reason: 'rejected_email' };
    }
  }
  return { kind: 'unclear', reason: 'smtp_error' };
}

/**
 * Whether a refusal is about the sender (this machine's address, its name, a blocklist it is on) rather
 * than one recipient: what Postfix says for an RBL hit ("Client host [...] blocked using zen.spamhaus.org"),
 * Microsoft's "5.7.606 Access denied, banned sending IP", and the like.
 */
const aboutTheSender =
  /\b(client host|blocked using|block ?list(ed)?|black ?list(ed)?|banned sending|sending ip|your ip|ip address|spamhaus|spamcop|barracuda|sorbs|reputation|rbl|dnsbl)\b/i;

export function refusesSender(reply: SmtpReply, beforeRecipients: boolean): boolean {
  if (reply.code < 500 || reply.code >= 600) return false;
  // Before any recipient was named, a permanent refusal can only be of us.
  if (beforeRecipients) return true;
  return Boolean(reply.enhanced?.startsWith('5.7.')) && aboutTheSender.test(reply.text);
}

/** The reply as a row keeps it: code, enhanced code and text, on one line and not too long. */
export function replyLine(reply: SmtpReply): string {
  const line = `${reply.code} ${reply.text}`.replace(/\s+/g, ' ').trim();
  return line.length > 300 ? `${line.slice(0, 297)}...` : line;
}
