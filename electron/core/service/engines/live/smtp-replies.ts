// What a mail server's reply to RCPT TO says about the address. Basic codes (RFC 5321 §4.2) and, where
// the server gives one, the enhanced status code (RFC 3463): x.1.x is about the address itself, x.7.x
// about policy (a server refusing to talk to us says nothing about the mailbox).
import type { SmtpReply } from './smtp-session.ts';

export type ReplyMeaning =
  | { kind: 'accepted' }
  | { kind: 'rejected'; reason: 'rejected_email' }
  /** Try again later: greylisting, a full queue, a passing fault. */
  | { kind: 'deferred' }
  /** 421: the server is closing; the whole host backs off. */
  | { kind: 'busy' }
  /** A definite answer that does not settle whether the mailbox exists. */
  | { kind: 'unclear'; reason: 'blocked_by_policy' | 'mailbox_full' | 'smtp_error' };

export function meaningOf(reply: SmtpReply): ReplyMeaning {
  const { code, enhanced } = reply;
  if (code === 421) return { kind: 'busy' };
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

/** The reply as a row keeps it: code, enhanced code and text, on one line and not too long. */
export function replyLine(reply: SmtpReply): string {
  const line = `${reply.code} ${reply.text}`.replace(/\s+/g, ' ').trim();
  return line.length > 300 ? `${line.slice(0, 297)}...` : line;
}
