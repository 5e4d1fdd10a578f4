// Mailbox words read by their grammar (issue 60): phrasings the table's sentences lacked, each from a public
// collection (test/fixtures/smtp-replies/mailbox-phrasings.json), read as the mailbox they are about; the
// sender's words never; a refusal that names another address than the one asked is not about its mailbox;
// and every line of a reply is read, the specific reason winning over RFC 5321's generic phrase.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { meaningOf } from '../../../../../../electron/core/service/engines/live/smtp-replies.ts';
import { parseReply } from '../../../../../../electron/core/service/engines/live/smtp-session.ts';

const phrasings = JSON.parse(
  readFileSync(new URL('../../../../../fixtures/smtp-replies/mailbox-phrasings.json', import.meta.url), 'utf8'),
) as { mailbox: { words: string; reason: string; source: string }[]; sender: { words: string; source: string }[] };

describe('mailbox words by their grammar', () => {
  it.each(phrasings.mailbox.map((entry) => [entry.words, entry] as const))('550 %s', (_, entry) => {
    expect(meaningOf({ code: 550, text: entry.words })).toEqual({ kind: 'rejected', reason: entry.reason });
    // The same words deferred wait; they are never invalid on a 4xx.
    expect(meaningOf({ code: 450, text: entry.words }).kind).toBe('deferred');
  });

  it.each(phrasings.sender.map((entry) => [entry.words, entry] as const))('550 %s is about the sender', (_, entry) => {
    expect(meaningOf({ code: 550, text: entry.words })).toMatchObject({ kind: 'unclear', blamesSender: true });
  });

  it('leaves what it cannot read unknown, never invalid', () => {
    for (const text of ['Message rejected', 'Not accepted here, sorry', 'Requested action aborted'])
      expect(meaningOf({ code: 550, text }).kind, text).not.toBe('rejected');
  });
});

describe('a refusal that names another address', () => {
  const asked = { recipient: 'ann@shop.example', sender: 'bounce@sift.example' };

  it("is about Sift's return path when it names Sift's MAIL FROM, whatever its code", () => {
    const reply = parseReply(['550 5.1.1 <bounce@sift.example>: Recipient address rejected: User unknown']);
    expect(meaningOf(reply, asked)).toEqual({ kind: 'unclear', reason: 'sender_address', blamesSender: true });
    expect(meaningOf(parseReply(['450 4.1.1 <bounce@sift.example>: User unknown']), asked)).toEqual({
      kind: 'deferred',
      reason: 'sender_address',
      blamesSender: true,
    });
  });

  it('settles nothing when it names someone else, and still reads a refusal naming the recipient', () => {
    const other = parseReply(['550 5.1.1 <bob@shop.example>: Recipient address rejected: User unknown']);
    expect(meaningOf(other, asked)).toEqual({ kind: 'unclear', reason: 'policy' });
    const ours = parseReply(['550 5.1.1 <Ann@Shop.example>: Recipient address rejected: User unknown']);
    expect(meaningOf(ours, asked)).toEqual({ kind: 'rejected', reason: 'mailbox_not_found' });
    // No address named: the words and the code decide, as before.
    expect(meaningOf(parseReply(['550 5.1.1 User unknown']), asked)).toEqual({
      kind: 'rejected',
      reason: 'mailbox_not_found',
    });
  });
});

describe('every line of a reply', () => {
  it('lets the last line about the sender win over a first line of the generic phrase', () => {
    const reply = parseReply([
      '550-5.1.1 Requested action not taken: mailbox unavailable',
      "550 5.7.1 Your domain has no MX or A record: fix your domain's DNS",
    ]);
    expect(meaningOf(reply)).toMatchObject({ kind: 'unclear', blamesSender: true });
  });

  it('reads the generic phrase alone as before', () => {
    expect(meaningOf(parseReply(['550 Requested action not taken: mailbox unavailable']))).toEqual({
      kind: 'rejected',
      reason: 'mailbox_not_found',
    });
  });
});
