// What the engine makes of replies it cannot read, and of servers that refuse the sender for a while, with
// real conversations on loopback: a refusal in unknown words is `invalid` only where the same server told
// mailboxes apart in the same conversation; a server that always refuses the sender temporarily lets the
// batch end on the greylisting schedule; a recipient wanted in a transaction of its own is asked again;
// a provider that accepts every recipient is named as the reason for a catch-all.
import { afterEach, describe, expect, it } from 'vitest';
import { runBatch, startEngineService, type EngineRun } from '../../../../../support/engine-harness.ts';
import { startMailWorld, type MailWorld } from '../../../../../support/mail-world.ts';
import type { RawScript } from '../../../../../support/raw-smtp-host.ts';

/** Postfix's dialogue, with RCPT answered by `rcpt(address, nthInTransaction, mailFrom)`. */
function server(rcpt: (address: string, nth: number, mailFrom: string) => string): RawScript {
  let nth = 0;
  let mailFrom = '';
  return (command) => {
    if (command === undefined) return '220 mx ESMTP\r\n';
    if (/^(EHLO|HELO) /i.test(command)) return '250 mx\r\n';
    if (/^MAIL FROM:/i.test(command)) {
      nth = 0;
      mailFrom = /^MAIL FROM:<([^>]*)>/i.exec(command)?.[1] ?? '';
      return '250 2.1.0 Ok\r\n';
    }
    if (/^RCPT TO:</i.test(command)) {
      nth += 1;
      return `${rcpt(/^RCPT TO:<([^>]*)>/i.exec(command)![1]!, nth, mailFrom)}\r\n`;
    }
    if (/^RSET/i.test(command)) return '250 2.0.0 Ok\r\n';
    return '502 5.5.2 Error: command not recognized\r\n';
  };
}

const unreadable = '550 Sorry, no';
let world: MailWorld | undefined;
let run: EngineRun | undefined;

afterEach(async () => {
  await run?.service.close();
  await world?.close();
  run = undefined;
  world = undefined;
});

describe('a refusal in words Sift cannot read', () => {
  it('is invalid only where the server accepted another of its domain and refused the made-up address', async () => {
    world = await startMailWorld({
      hosts: {
        // Tells mailboxes apart: the made-up probe address and bob refused, alice accepted.
        'mx.tells.test': {
          ip: '127.0.9.1',
          raw: server((address) => (address.startsWith('alice@') ? '250 2.1.5 Ok' : unreadable)),
        },
        // Refuses Sift itself, every address alike, in the same words.
        'mx.refuses.test': { ip: '127.0.9.2', raw: server(() => unreadable) },
      },
      domains: { 'tells.test': { mx: ['mx.tells.test'] }, 'refuses.test': { mx: ['mx.refuses.test'] } },
    });
    run = await startEngineService(world);
    const { rows } = await runBatch(run, [
      'alice@tells.test',
      'bob@tells.test',
      'carol@refuses.test',
      'dan@refuses.test',
    ]);
    expect(rows.get('alice@tells.test')).toMatchObject({ result: 'valid', billed: true });
    expect(rows.get('bob@tells.test')).toMatchObject({ result: 'invalid', reason: 'refused_mailbox', billed: true });
    for (const email of ['carol@refuses.test', 'dan@refuses.test']) {
      // Kept with the server's words, unbilled.
      expect(rows.get(email)).toMatchObject({ result: 'unknown', reason: 'refused_unread', billed: false });
      expect(rows.get(email)?.smtp_reply).toBe(unreadable);
    }
  }, 30_000);
});

describe('a temporary refusal of the sender', () => {
  it('ends on the greylisting schedule, not a rate back-off, and the refused-sender finding names it', async () => {
    const refusal = '450 4.7.1 Client host rejected: cannot find your reverse hostname, [203.0.113.5]';
    const hosts = Object.fromEntries(
      [1, 2, 3].map((n) => [`mx.t${n}.test`, { ip: `127.0.9.${10 + n}`, raw: server(() => refusal) }]),
    );
    const domains = Object.fromEntries([1, 2, 3].map((n) => [`t${n}.test`, { mx: [`mx.t${n}.test`] }]));
    world = await startMailWorld({ hosts, domains });
    // A back-off of a minute per try would hold this batch for minutes; the schedule is 0.3 s a try.
    run = await startEngineService(world, {
      greylistRetryMs: [300, 300, 300],
      backoffMs: 60_000,
      blockedAfterHosts: 3,
    });
    const emails = ['a@t1.test', 'b@t2.test', 'c@t3.test', 'd@t3.test'];
    // A minute's back-off per try would not end within the 40 s the batch is given.
    const { status, rows } = await runBatch(run, emails, 40_000);
    expect(status.status).toBe('complete');
    for (const email of emails) {
      expect(rows.get(email)).toMatchObject({ result: 'unknown', reason: 'sender_reverse_dns', billed: false });
    }
    // Asked once and then on each retry of the schedule: never probed for a pace.
    expect(world.logs['mx.t1.test']!.rcpts.length).toBeLessThanOrEqual(4);
    const account = (await run.api('GET', '/account')).body;
    expect(account.sender).toMatchObject({ state: 'refused', reply: refusal });
  }, 60_000);
});

describe("Outlook.com's recipients of another region", () => {
  it('asks such a recipient again in a new conversation, where it is accepted', async () => {
    const region =
      '452 4.5.3 Recipients belong to multiple regions ATTR38 [VE1EUR01FT019.eop-EUR01.prod.protection.outlook.com]';
    world = await startMailWorld({
      hosts: {
        'mx.regions.test': {
          ip: '127.0.9.20',
          // The first recipient of a transaction sets its region; the made-up probe address is unknown.
          raw: server((address, nth) =>
            nth > 1 ? region : address.startsWith('sift-') ? '550 5.1.1 User unknown' : '250 2.1.5 Recipient OK',
          ),
        },
      },
      domains: { 'regions.test': { mx: ['mx.regions.test'] } },
    });
    // Not a rate reply: a host back-off of a minute would hold these for minutes.
    run = await startEngineService(world, { backoffMs: 60_000 });
    const emails = ['ann@regions.test', 'ben@regions.test', 'cat@regions.test'];
    const { rows } = await runBatch(run, emails, 20_000);
    for (const email of emails) expect(rows.get(email)).toMatchObject({ result: 'valid', billed: true });
  }, 40_000);
});

describe('a provider that accepts every recipient', () => {
  it('makes its addresses catch-all with a reason that names the provider as the cause', async () => {
    world = await startMailWorld({
      hosts: { 'mta5.am0.yahoodns.net': { ip: '127.0.9.30', others: 'accept' } },
      domains: { 'yahoo.test': { mx: ['mta5.am0.yahoodns.net'] } },
    });
    run = await startEngineService(world);
    const { rows } = await runBatch(run, ['someone@yahoo.test']);
    expect(rows.get('someone@yahoo.test')).toMatchObject({ result: 'catch_all', reason: 'accept_all_provider' });
  }, 30_000);
});

describe('a refusal that names another address than the one asked', () => {
  it("is about Sift's return path when it names it, about no one asked when it names someone else", async () => {
    const unknownUser = (named: string) =>
      `550 5.1.1 <${named}>: Recipient address rejected: User unknown in local recipient table`;
    world = await startMailWorld({
      hosts: {
        // A server whose check of Sift's return path failed, naming it in a mailbox code (issue 60).
        'mx.ours.test': { ip: '127.0.9.31', raw: server((_address, _nth, mailFrom) => unknownUser(mailFrom)) },
        'mx.else.test': { ip: '127.0.9.32', raw: server(() => unknownUser('carol@elsewhere.test')) },
        'mx.self.test': { ip: '127.0.9.33', raw: server((address) => unknownUser(address)) },
      },
      domains: {
        'ours.test': { mx: ['mx.ours.test'] },
        'else.test': { mx: ['mx.else.test'] },
        'self.test': { mx: ['mx.self.test'] },
      },
    });
    run = await startEngineService(world);
    const { rows } = await runBatch(run, ['ann@ours.test', 'bob@else.test', 'dan@self.test']);
    expect(rows.get('ann@ours.test')).toMatchObject({ result: 'unknown', reason: 'sender_address', billed: false });
    expect(rows.get('bob@else.test')).toMatchObject({ result: 'unknown', reason: 'policy', billed: false });
    expect(rows.get('dan@self.test')).toMatchObject({ result: 'invalid', reason: 'mailbox_not_found', billed: true });
  }, 30_000);
});
