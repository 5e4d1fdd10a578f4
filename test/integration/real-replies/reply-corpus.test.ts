// Every real reply in the corpus, through the whole engine: a batch on Sift's own service with a live key,
// one address per domain, each domain's mail server on its own loopback address answering the command
// the reply was seen at with that reply, word for word. What a person reads from the API: the verdict,
// the reason, and whether a credit was spent. No reply that blames the sender gives `invalid` or a charge.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCorpusWorld, type CorpusWorld } from '../../support/corpus-world.ts';
import { runBatch } from '../../support/engine-harness.ts';
import { replyCorpus } from '../../support/reply-corpus.ts';

let corpus: CorpusWorld;

beforeAll(async () => {
  // A server that accepts an address knows its mailboxes: it refuses the catch-all probe's made-up one.
  const served = replyCorpus.map((entry) => ({ ...entry, refusesProbe: entry.result === 'valid' }));
  corpus = await startCorpusWorld(served, 'corpus.test');
});
afterAll(async () => {
  await corpus?.run.service.close();
  await corpus?.world.close();
});

describe('the real replies through the whole engine', () => {
  it('gives each address the reason and verdict its reply calls for, billed only when definitive', async () => {
    const { run, emails } = corpus;
    const { status, rows } = await runBatch(run, emails, 100_000);
    expect(status.status).toBe('complete');
    const wrong = replyCorpus.flatMap((entry, index) => {
      const row = rows.get(emails[index]!)!;
      const billed = entry.result !== 'unknown';
      const same = row.result === entry.result && row.reason === entry.reason && row.billed === billed;
      return same ? [] : [`${entry.reply.split('\n').at(-1)} -> ${row.result}/${row.reason}/billed ${row.billed}`];
    });
    expect(wrong).toEqual([]);
    const blaming = replyCorpus.flatMap((entry, index) => (entry.reason.startsWith('sender_') ? [emails[index]!] : []));
    for (const email of blaming) expect(rows.get(email)).toMatchObject({ result: 'unknown', billed: false });
    // The refusals of the sender feed the refused-sender finding: many unrelated domains refused us.
    const account = (await run.api('GET', '/account')).body;
    expect(account.sender).toMatchObject({ state: 'refused' });
  }, 120_000);
});
