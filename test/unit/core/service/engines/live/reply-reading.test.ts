// How Sift reads each real reply in the corpus, words and codes together: the reason and the kind of
// answer it is. The same corpus goes through the whole engine in test/integration/real-replies.
import { describe, expect, it } from 'vitest';
import { blocklistNamedIn } from '../../../../../../electron/core/service/engines/live/blocklists.ts';
import { replyPatterns } from '../../../../../../electron/core/service/engines/live/reply-patterns.ts';
import {
  enhancedCodeOf,
  meaningOf,
  refusalReason,
} from '../../../../../../electron/core/service/engines/live/smtp-replies.ts';
import { parseReply } from '../../../../../../electron/core/service/engines/live/smtp-session.ts';
import { reasonWords, senderRefusalReasons } from '../../../../../../electron/common/reason-words.ts';
import { corpusReply, replyCorpus } from '../../../../../support/reply-corpus.ts';

const read = (line: string) => meaningOf(parseReply([line]));

describe('the reply corpus', () => {
  it('holds at least 150 real replies, each with its source, from the providers, gateways and MTAs named', () => {
    expect(replyCorpus.length).toBeGreaterThanOrEqual(150);
    for (const entry of replyCorpus) expect(entry.source.length, entry.reply).toBeGreaterThan(10);
    const sources = replyCorpus.map((entry) => entry.source).join('\n');
    for (const named of [
      'google',
      'microsoft',
      'yahoo',
      'apple',
      'comcast',
      'gmx',
      'mail.ru',
      'orange',
      'proofpoint',
      'mimecast',
      'barracuda',
      'cisco',
      'sophos',
      'trend',
      'postfix',
      'exim',
      'spamhaus',
    ]) {
      expect(sources.toLowerCase(), named).toContain(named);
    }
  });

  it.each(replyCorpus.map((entry) => [entry.reply.split('\n').at(-1)!.slice(0, 70), entry] as const))(
    '%s',
    (_, entry) => {
      const reply = corpusReply(entry);
      const meaning = meaningOf(reply);
      if (entry.stage !== 'rcpt' && reply.code >= 500) {
        // Refused before any recipient: only the sender can have been refused.
        expect(refusalReason(reply, entry.stage)).toBe(entry.reason);
        return;
      }
      if (entry.result === 'valid') return expect(meaning.kind).toBe('accepted');
      expect('reason' in meaning ? meaning.reason : undefined).toBe(entry.reason);
      expect(meaning.kind === 'rejected').toBe(entry.result === 'invalid');
    },
  );

  it('never reads a reply that blames the sender as invalid, whatever its code', () => {
    const blaming = replyCorpus.filter((entry) => entry.reason.startsWith('sender_'));
    expect(blaming.length).toBeGreaterThan(40);
    for (const entry of blaming) {
      const meaning = meaningOf(corpusReply(entry));
      expect(meaning.kind, entry.reply).not.toBe('rejected');
      expect(meaning.blamesSender, entry.reply).toBe(true);
    }
  });
});

describe('reading a reply', () => {
  it('takes an enhanced code from anywhere in the text, never from an IP address', () => {
    expect(enhancedCodeOf(parseReply(['554 Unknown Recipient (#5.1.1)']))).toBe('5.1.1');
    expect(enhancedCodeOf(parseReply(['550 mail from 5.79.109.48 refused']))).toBeUndefined();
    expect(read('554 Unknown Recipient (#5.1.1)')).toEqual({ kind: 'rejected', reason: 'mailbox_not_found' });
  });

  it('gives a full mailbox at once, not on the greylisting schedule', () => {
    expect(read('452 4.2.2 Mailbox full')).toEqual({ kind: 'unclear', reason: 'mailbox_full' });
    expect(read('552 Requested mail action aborted: exceeded storage allocation')).toEqual({
      kind: 'unclear',
      reason: 'mailbox_full',
    });
  });

  it('falls back on the codes when the words say nothing known', () => {
    expect(read('550 Zzz')).toEqual({ kind: 'unread', reason: 'refused_unread' });
    expect(read('554 Zzz')).toEqual({ kind: 'unread', reason: 'refused_unread' });
    expect(read('550 5.1.2 Zzz')).toEqual({ kind: 'rejected', reason: 'mailbox_not_found' });
    expect(read('550 5.2.1 Zzz')).toEqual({ kind: 'rejected', reason: 'mailbox_disabled' });
    expect(read('550 5.7.1 Zzz')).toEqual({ kind: 'unclear', reason: 'policy' });
    expect(read('451 4.7.1 Zzz')).toEqual({ kind: 'deferred', reason: 'greylisted' });
    expect(read('450 4.7.1 Zzz')).toEqual({ kind: 'deferred', reason: 'greylisted' });
    expect(read('421 Zzz')).toEqual({ kind: 'busy', reason: 'rate_limited' });
    expect(read('500 Zzz')).toEqual({ kind: 'unclear', reason: 'server_error' });
    expect(read('553 5.1.8 Zzz')).toMatchObject({ kind: 'unclear', reason: 'sender_address', blamesSender: true });
  });

  it('names the blocklist a reply names, and keeps a source beside every pattern', () => {
    expect(
      blocklistNamedIn('550 Rejected because 203.0.113.5 is in a black list at b.barracudacentral.org')?.name,
    ).toBe('Barracuda');
    expect(blocklistNamedIn('550 5.7.606 Access denied, banned sending IP [203.0.113.5]')?.name).toBe('Microsoft');
    for (const pattern of replyPatterns) expect(pattern.seen.length).toBeGreaterThan(10);
  });
});

describe('each reason in words', () => {
  it('has a sentence for every reason a reply can give, and says of the sender ones that they say nothing of the address', () => {
    const reasons = new Set([
      ...replyPatterns.map((pattern) => pattern.reason),
      ...replyCorpus.map((entry) => entry.reason),
    ]);
    for (const reason of reasons) expect(reasonWords(reason), reason).not.toBe(reason);
    for (const reason of senderRefusalReasons) expect(reasonWords(reason)).toMatch(/says nothing about the address/);
  });
});
