// The corpus of real mail-server replies (test/fixtures/smtp-replies/corpus.json): each with where it was
// seen, the command it answers, and the reason and verdict Sift must give the address it was about.
import { readFileSync } from 'node:fs';
import { parseReply } from '../../electron/core/service/engines/live/smtp-session.ts';

export type CorpusEntry = {
  reply: string;
  stage: 'greeting' | 'ehlo' | 'mail' | 'rcpt';
  reason: string;
  result: 'valid' | 'invalid' | 'unknown';
  source: string;
};

export const replyCorpus: CorpusEntry[] = (
  JSON.parse(readFileSync(new URL('../fixtures/smtp-replies/corpus.json', import.meta.url), 'utf8')) as {
    replies: CorpusEntry[];
  }
).replies;

/** The entry's reply as the session reads it off the wire. */
export const corpusReply = (entry: CorpusEntry) => parseReply(entry.reply.split('\n'));

export type UnseenEntry = {
  reply: string;
  stage: CorpusEntry['stage'];
  /** What the reply is about (unseen-corpus.json's `about` says each). */
  expect: 'sender' | 'mailbox' | 'full' | 'other' | 'alone' | 'valid';
  result: 'valid' | 'invalid' | 'unknown';
  source: string;
  /** Where the source does not name the command the reply answers. */
  stage_note?: string;
};

/**
 * A second corpus gathered apart from the first (issue 50), none of its replies in corpus.json: what the
 * table was not written for. test/fixtures/smtp-replies/unseen-corpus.json.
 */
export const unseenCorpus: UnseenEntry[] = (
  JSON.parse(readFileSync(new URL('../fixtures/smtp-replies/unseen-corpus.json', import.meta.url), 'utf8')) as {
    replies: UnseenEntry[];
  }
).replies;
