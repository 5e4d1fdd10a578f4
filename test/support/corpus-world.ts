// A world of mail servers on loopback for a corpus of real replies: one domain per entry, each domain's
// server on its own loopback address answering the command the reply was seen at with that reply, word
// for word, and everything else as Postfix would; and Sift's own service with a live key to ask them.
import { startEngineService, type EngineRun } from './engine-harness.ts';
import { startMailWorld, type HostScript, type MailWorld } from './mail-world.ts';
import type { RawScript } from './raw-smtp-host.ts';

export type ServedReply = {
  reply: string;
  stage: 'greeting' | 'ehlo' | 'mail' | 'rcpt';
  /** The server knows its mailboxes: Sift's made-up catch-all probe address is refused as unknown. */
  refusesProbe?: boolean;
  /** The reply is said only to a second recipient of a transaction (Outlook.com's other region). */
  secondRecipientOnly?: boolean;
};

const crlf = (reply: string) => `${reply.split('\n').join('\r\n')}\r\n`;
/**
 * The reply as its server would say it to the recipient asked: a real reply names the address it was
 * asked about, so the address the source printed gives way to the one Sift asked (else Sift would rightly
 * read it as about someone else).
 */
const namingAsked = (reply: string, command: string) =>
  reply.replace(/([<[])[^<>[\]\s@]+@[^<>[\]\s]+([>\]])/g, `$1${command.slice(9).replace(/[<>\s]/g, '')}$2`);
const userUnknown = '550 5.1.1 <probe>: Recipient address rejected: User unknown in virtual mailbox table\r\n';

/** A server that answers the entry's stage with the entry's reply, and everything else as Postfix would. */
function serverFor(entry: ServedReply, name: string): RawScript {
  let recipients = 0;
  return (command) => {
    if (command === undefined) {
      recipients = 0;
      return entry.stage === 'greeting' ? crlf(entry.reply) : `220 ${name} ESMTP\r\n`;
    }
    if (/^(EHLO|HELO) /i.test(command)) return entry.stage === 'ehlo' ? crlf(entry.reply) : `250 ${name}\r\n`;
    if (/^MAIL FROM:/i.test(command)) {
      recipients = 0;
      return entry.stage === 'mail' ? crlf(entry.reply) : '250 2.1.0 Ok\r\n';
    }
    if (/^RCPT TO:/i.test(command)) {
      recipients += 1;
      const probe = /^RCPT TO:<sift-/i.test(command);
      if (entry.secondRecipientOnly)
        return recipients > 1 ? crlf(namingAsked(entry.reply, command)) : probe ? userUnknown : '250 2.1.5 Ok\r\n';
      if (probe && entry.refusesProbe) return userUnknown;
      return crlf(namingAsked(entry.reply, command));
    }
    if (/^RSET/i.test(command)) return '250 2.0.0 Ok\r\n';
    return '502 5.5.2 Error: command not recognized\r\n';
  };
}

export type CorpusWorld = { world: MailWorld; run: EngineRun; emails: string[] };

/** One domain per entry (`someone@c007.<zone>`), each on its own loopback address, and the service asking. */
export async function startCorpusWorld(entries: readonly ServedReply[], zone: string): Promise<CorpusWorld> {
  const hosts: Record<string, HostScript> = {};
  const domains: Record<string, { mx: string[] }> = {};
  const domainOf = (index: number) => `c${String(index).padStart(3, '0')}.${zone}`;
  entries.forEach((entry, index) => {
    const name = `mx.${domainOf(index)}`;
    hosts[name] = { ip: `127.0.${2 + Math.floor(index / 250)}.${1 + (index % 250)}`, raw: serverFor(entry, name) };
    domains[domainOf(index)] = { mx: [name] };
  });
  const world = await startMailWorld({ hosts, domains });
  // Servers that always answer "too many recipients" are probed for their window, each probe a quarter
  // later than the last refused one, before a try counts. The first probe waits for the batch's other
  // domains, so that wait grows by 1.25 per probe: a dozen free ones (the shipped number) made a loaded
  // machine's second into two minutes. Two here, from 20 ms rather than a quarter of a second.
  const run = await startEngineService(world, { concurrency: 40, rateProbeWaitMs: 20, rateProbeFreeRefusals: 2 });
  return { world, run, emails: entries.map((_, index) => `someone@${domainOf(index)}`) };
}
