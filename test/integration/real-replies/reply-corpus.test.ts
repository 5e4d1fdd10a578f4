// Every real reply in the corpus, through the whole engine: a batch on Sift's own service with a live key,
// one address per domain, each domain's mail server on its own loopback address answering the command
// the reply was seen at with that reply, word for word. What a person reads from the API: the verdict,
// the reason, and whether a credit was spent. No reply that blames the sender gives `invalid` or a charge.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runBatch, startEngineService, type EngineRun } from '../../support/engine-harness.ts';
import { startMailWorld, type HostScript, type MailWorld } from '../../support/mail-world.ts';
import type { RawScript } from '../../support/raw-smtp-host.ts';
import { replyCorpus, type CorpusEntry } from '../../support/reply-corpus.ts';

const crlf = (reply: string) => `${reply.split('\n').join('\r\n')}\r\n`;
const domainOf = (index: number) => `c${String(index).padStart(3, '0')}.corpus.test`;

/** A server that answers the entry's stage with the entry's reply, and everything else as Postfix would. */
function serverFor(entry: CorpusEntry, name: string): RawScript {
  return (command) => {
    if (command === undefined) return entry.stage === 'greeting' ? crlf(entry.reply) : `220 ${name} ESMTP\r\n`;
    if (/^(EHLO|HELO) /i.test(command)) return entry.stage === 'ehlo' ? crlf(entry.reply) : `250 ${name}\r\n`;
    if (/^MAIL FROM:/i.test(command)) return entry.stage === 'mail' ? crlf(entry.reply) : '250 2.1.0 Ok\r\n';
    if (/^RCPT TO:<sift-/i.test(command) && entry.result === 'valid') {
      // The catch-all probe's made-up address: this server knows its mailboxes.
      return '550 5.1.1 <probe>: Recipient address rejected: User unknown in virtual mailbox table\r\n';
    }
    if (/^RCPT TO:/i.test(command)) return crlf(entry.reply);
    if (/^RSET/i.test(command)) return '250 2.0.0 Ok\r\n';
    return '502 5.5.2 Error: command not recognized\r\n';
  };
}

let world: MailWorld;
let run: EngineRun;

beforeAll(async () => {
  const hosts: Record<string, HostScript> = {};
  const domains: Record<string, { mx: string[] }> = {};
  replyCorpus.forEach((entry, index) => {
    const name = `mx.${domainOf(index)}`;
    hosts[name] = { ip: `127.0.${2 + Math.floor(index / 250)}.${1 + (index % 250)}`, raw: serverFor(entry, name) };
    domains[domainOf(index)] = { mx: [name] };
  });
  world = await startMailWorld({ hosts, domains });
  run = await startEngineService(world, { concurrency: 40 });
});
afterAll(async () => {
  await run?.service.close();
  await world?.close();
});

describe('the real replies through the whole engine', () => {
  it('gives each address the reason and verdict its reply calls for, billed only when definitive', async () => {
    const emails = replyCorpus.map((_, index) => `someone@${domainOf(index)}`);
    const { status, rows } = await runBatch(run, emails, 120_000);
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
    // Servers that always say "too many recipients" are probed for their window a dozen times first.
  }, 120_000);
});
