// One message from a bounce mailbox, read: a delivery status notification (RFC 3464: a
// `multipart/report; report-type=delivery-status` with a `message/delivery-status` part, or RFC 6533's
// `message/global-delivery-status`), qmail's bounce format (QSBMF, http://cr.yp.to/proto/qsbmf.txt), or a
// bounce that names its failed recipients in `X-Failed-Recipients` (Exim, Gmail); or mail that is no bounce
// at all (an out-of-office reply, RFC 3834's Auto-Submitted; a complaint, RFC 5965's feedback report;
// anything else), which is left where it is. listmonk counted auto-replies as bounces and deleted every
// message: knadh/listmonk#1334.
import PostalMime from 'postal-mime';
import { precheckAddress } from '../email/address-precheck.ts';
import { bounceMeaning, type BounceKind } from './bounce-meaning.ts';
import { fieldGroups, typedValue } from './dsn-fields.ts';
import { verpRecipient } from './verp.ts';

export type BouncedRecipient = {
  /** The address as lists key it (trimmed, lower-cased). */
  address: string;
  kind: BounceKind;
  /** A reason of the reply table's (`mailbox_not_found`, `sender_blocklisted`, …). */
  reason: string;
  status?: string;
  /** The server's words, as the bounce gives them. */
  diagnostic?: string;
};

type BounceFormat = 'rfc3464' | 'qmail' | 'x-failed-recipients';

export type MessageRead =
  | { kind: 'bounce'; format: BounceFormat; recipients: BouncedRecipient[]; date?: number; subject: string }
  | { kind: 'other'; why: NotBounce; subject: string };

type NotBounce = 'auto-reply' | 'complaint' | 'not a bounce' | 'no recipient' | 'unreadable';

/** QSBMF's introduction, and Yahoo's older bounces, written in the same format (paragraphs of `<address>:` and the reply). */
const qmailIntro =
  /^\s*(Hi\. This is the qmail-send program|Sorry, we were unable to deliver your message to the following address)/;

const statusParts = new Set(['message/delivery-status', 'message/global-delivery-status']);

export async function readMessage(raw: Uint8Array | string): Promise<MessageRead> {
  let email: Awaited<ReturnType<typeof PostalMime.parse>>;
  try {
    email = await PostalMime.parse(raw, { attachmentEncoding: 'utf8' });
  } catch {
    return { kind: 'other', why: 'unreadable', subject: '' };
  }
  const subject = email.subject ?? '';
  const header = (name: string) => email.headers.find((each) => each.key === name)?.value ?? '';
  const contentType = header('content-type').toLowerCase();
  const date = email.date ? Date.parse(email.date) : Number.NaN;
  const when = Number.isFinite(date) ? { date } : {};
  const verp = verpRecipient(header('delivered-to') || header('x-original-to') || header('to'));
  if (/report-type\s*=\s*"?feedback-report/.test(contentType)) return { kind: 'other', why: 'complaint', subject };
  const status = email.attachments.find((part) => statusParts.has(part.mimeType.toLowerCase()));
  if (status) {
    const recipients = dsnRecipients(String(status.content), verp);
    if (recipients === undefined) return { kind: 'other', why: 'no recipient', subject };
    return { kind: 'bounce', format: 'rfc3464', recipients, ...when, subject };
  }
  if (/report-type\s*=\s*"?delivery-status/.test(contentType)) return { kind: 'other', why: 'no recipient', subject };
  const text = email.text ?? '';
  if (qmailIntro.test(text)) {
    const recipients = qmailRecipients(text);
    if (recipients.length === 0) return { kind: 'other', why: 'no recipient', subject };
    return { kind: 'bounce', format: 'qmail', recipients, ...when, subject };
  }
  const failed = header('x-failed-recipients');
  if (failed) {
    const recipients = failedRecipients(failed, text);
    if (recipients.length === 0) return { kind: 'other', why: 'no recipient', subject };
    return { kind: 'bounce', format: 'x-failed-recipients', recipients, ...when, subject };
  }
  if (isAutoReply(header, subject)) return { kind: 'other', why: 'auto-reply', subject };
  return { kind: 'other', why: 'not a bounce', subject };
}

/** RFC 3834 §5's Auto-Submitted, and the headers and subjects auto-responders set without it. */
function isAutoReply(header: (name: string) => string, subject: string): boolean {
  const auto = header('auto-submitted').toLowerCase();
  if (auto !== '' && auto !== 'no') return true;
  if (header('x-autoreply') || header('x-autorespond') || header('x-autoresponder')) return true;
  if (/^auto_reply$/i.test(header('precedence'))) return true;
  return /^(auto(matic)?[ -]?reply|out of (the )?office|away|vacation|abwesenheit|r[ée]ponse automatique)\b/i.test(
    subject.replace(/^(re|aw|fw):\s*/i, ''),
  );
}

/** An address as a report may write it, `<ann@example.com>`, without its angle brackets. */
const unbracketed = (raw: string) => raw.replace(/^<|>$/g, '');

function keyOf(raw: string | undefined): string | undefined {
  if (!raw) return undefined;
  const check = precheckAddress(unbracketed(raw));
  return check.ok ? check.key : undefined;
}

/** Undefined when no group names a recipient Sift can read (and no VERP address stands in). */
function dsnRecipients(text: string, verp: string | undefined): BouncedRecipient[] | undefined {
  const groups = fieldGroups(text).filter((group) => group.has('action'));
  const recipients: BouncedRecipient[] = [];
  let named = 0;
  for (const group of groups) {
    const original = typedValue(group.get('original-recipient'))?.value;
    const final = typedValue(group.get('final-recipient'))?.value;
    const address =
      // The address as the sender gave it (§2.3.1) before any alias or forward the server expanded it to.
      keyOf(original) ?? keyOf(final) ?? (groups.length === 1 ? verp : undefined);
    if (address === undefined) continue;
    named += 1;
    const status = group.get('status')?.split(/\s/)[0];
    const diagnostic = typedValue(group.get('diagnostic-code'))?.value;
    const meaning = bounceMeaning({
      action: group.get('action')!,
      ...(status ? { status } : {}),
      ...(diagnostic ? { diagnostic } : {}),
      recipients: [original, final, verp].flatMap((name) => (name ? [unbracketed(name)] : [])),
    });
    if (meaning)
      recipients.push({ address, ...meaning, ...(status ? { status } : {}), ...(diagnostic ? { diagnostic } : {}) });
  }
  return named === 0 ? undefined : recipients;
}

const enhancedInText = /(?<![\d.])([245]\.\d{1,3}\.\d{1,3})(?![\d]|\.\d)/;
const replyLine = /(?:^|\s)([245]\d\d[ -].*)$/m;

function recipientOf(address: string, diagnostic: string): BouncedRecipient | undefined {
  const key = keyOf(address);
  if (key === undefined) return undefined;
  const words = diagnostic.replace(/\s+/g, ' ').trim();
  const status = enhancedInText.exec(words)?.[1];
  const meaning = bounceMeaning({
    action: 'failed',
    ...(status ? { status } : {}),
    diagnostic: words,
    recipients: [unbracketed(address)],
  });
  return (
    meaning && { address: key, ...meaning, ...(status ? { status } : {}), ...(words ? { diagnostic: words } : {}) }
  );
}

/** QSBMF: after the introduction, one paragraph per permanently failed recipient, `<address>:` first. */
function qmailRecipients(text: string): BouncedRecipient[] {
  const body = text.split(/\n--- (?:Below this line is|Enclosed is) a copy of the message\./)[0] ?? '';
  const recipients: BouncedRecipient[] = [];
  for (const paragraph of body.replace(/\r\n?/g, '\n').split(/\n\s*\n/)) {
    const match = /^<([^>\s]+)>:\s*\n?([\s\S]*)$/.exec(paragraph.trim());
    if (!match) continue;
    const recipient = recipientOf(match[1]!, match[2]!.replace(/^Remote host said:\s*/i, ''));
    if (recipient) recipients.push(recipient);
  }
  return recipients;
}

/** Exim's and Gmail's bounces: the addresses from the header, the server's reply from the text. */
function failedRecipients(header: string, text: string): BouncedRecipient[] {
  const recipients: BouncedRecipient[] = [];
  for (const address of header.split(',').map((each) => each.trim())) {
    const from = text.indexOf(address);
    const reply = replyLine.exec(from >= 0 ? text.slice(from) : text)?.[1] ?? replyLine.exec(text)?.[1] ?? '';
    const recipient = recipientOf(address, reply);
    if (recipient) recipients.push(recipient);
  }
  return recipients;
}
