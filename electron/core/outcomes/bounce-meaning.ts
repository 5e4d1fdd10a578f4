// What one recipient of a bounce says about the address: RFC 3464's Action and Status (RFC 3463's codes)
// read together with the server's own words, through the same reply table the live engine reads a
// conversation with (smtp-replies.ts). A failed delivery with a permanent status is a hard bounce when it
// is about the mailbox (its words or its code say the mailbox does not exist or is closed); one that
// blames the sender (its address, its IP, its content, a blocklist) or whose words Sift cannot read says
// nothing about the mailbox and is kept as `refused`, never put on the do-not-mail list. A delayed action
// or a temporary status is soft, and so is a full mailbox (it exists).
import { meaningOf } from '../service/engines/live/smtp-replies.ts';
import type { SmtpReply } from '../service/engines/live/smtp-session.ts';

export type BounceKind = 'hard' | 'soft' | 'refused';

export type RecipientReport = {
  /** RFC 3464 §2.3.3: failed, delayed, delivered, relayed or expanded. */
  action: string;
  /** RFC 3464 §2.3.4: an RFC 3463 code, `5.1.1`. */
  status?: string;
  /** RFC 3464 §2.3.6's text without its type: the remote server's reply, or the MTA's own words. */
  diagnostic?: string;
  /**
   * The addresses the report gives this recipient (Original- and Final-Recipient, or the one a plain bounce
   * names): a diagnostic that names another address (the sender's, say) is not about this mailbox.
   */
  recipients?: readonly string[];
};

export type BounceMeaning = { kind: BounceKind; reason: string };

const statusCode = /^([245])\.\d{1,3}\.\d{1,3}$/;
const leadingReply = /^([245]\d\d)[ -]/;

/** The diagnostic as a reply: its own code when it starts with one, else the class of the status. */
function replyOf(report: RecipientReport, permanent: boolean): SmtpReply {
  const text = (report.diagnostic ?? '').replace(/\s+/g, ' ').trim();
  const code = leadingReply.exec(text)?.[1];
  if (code) return { code: Number(code), text: text.slice(4) };
  return { code: permanent ? 550 : 450, text };
}

/** Undefined for a recipient that was delivered, relayed or expanded: no bounce at all. */
export function bounceMeaning(report: RecipientReport): BounceMeaning | undefined {
  const action = report.action.trim().toLowerCase();
  if (action !== 'failed' && action !== 'delayed') return undefined;
  const statusClass = statusCode.exec(report.status?.trim() ?? '')?.[1];
  const permanent = action === 'failed' && statusClass !== '4';
  const reply = replyOf(report, permanent);
  // The status stands for the code when the words carry none ("x-postfix; unknown user").
  if (reply.enhanced === undefined && statusClass !== undefined && !/[245]\.\d{1,3}\.\d{1,3}/.test(reply.text))
    reply.enhanced = report.status!.trim();
  const [recipient, ...alsoKnownAs] = report.recipients ?? [];
  const meaning = meaningOf(reply, recipient === undefined ? undefined : { recipient, alsoKnownAs });
  const reason = 'reason' in meaning ? meaning.reason : 'accepted';
  if (meaning.blamesSender) return { kind: 'refused', reason };
  if (!permanent || reply.code < 500) return { kind: 'soft', reason: reason === 'accepted' ? 'delayed' : reason };
  if (meaning.kind === 'rejected') return { kind: 'hard', reason };
  if (reason === 'mailbox_full') return { kind: 'soft', reason };
  return { kind: 'refused', reason };
}
