// Real mail servers refusing a blocklisted prober as they do on the internet: a real DNS blocklist server
// (Debian's rbldnsd, on loopback) lists 127.0.0.1, the address live checks leave from here, and Exim (a
// `dnslists` ACL with the message its documentation shows, and with none) and Postfix (`reject_rbl_client`)
// look it up there; Exim also refuses a denied host with its default reply, and one Exim refuses listed
// clients in words Sift's table does not hold (T-Online's) after accepting postmaster@ first, as Debian's
// ACL does. Every address, mailboxes that exist included, must come back unknown and unbilled. Then Sift's own look-up of its sending address in
// the lists before a batch, against the same server. Needs root and the servers, as real-mail-servers.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkHeloName } from '../../../electron/core/connections/helo-check.ts';
import { checkSenderBlocklists } from '../../../electron/core/service/engines/live/blocklist-lookup.ts';
import { smtpSettings } from '../../../electron/core/service/engines/live/smtp-settings.ts';
import { runBatch, startEngineService } from '../../support/engine-harness.ts';
import { startMailWorld, type MailWorld } from '../../support/mail-world.ts';
import { startExim } from '../../support/real-mta/exim.ts';
import { missingMailServers, type RunningServer } from '../../support/real-mta/mta-process.ts';
import { startPostfix } from '../../support/real-mta/postfix.ts';
import { startRbldnsd, type RunningBlocklists } from '../../support/real-mta/rbldnsd.ts';

const missing = missingMailServers();
if (missing.length > 0 && process.env.SIFT_REAL_MTA === 'required') {
  throw new Error(`The real mail servers are required here, and missing: ${missing.join('; ')}`);
}

const hosts = {
  'mx.exim-rbl.test': '127.0.0.51',
  'mx.exim-bare.test': '127.0.0.52',
  'mx.exim-denied.test': '127.0.0.53',
  'mx.postfix-rbl.test': '127.0.0.54',
  'mx.exim-unread.test': '127.0.0.55',
};
const listedText = 'Listed, see https://www.spamhaus.org/query/ip/$';

let world: MailWorld;
let blocklists: RunningBlocklists;
const servers: RunningServer[] = [];

describe.skipIf(missing.length > 0)('real mail servers refusing a blocklisted prober', () => {
  beforeAll(async () => {
    blocklists = await startRbldnsd({
      ip: '127.0.0.153',
      port: 53,
      zones: {
        'zen.spamhaus.org': { listed: ['127.0.0.1'], text: listedText },
        'bl.spamcop.net': {
          listed: ['127.0.0.7'],
          // A list's TXT text with terminal escapes in it: never printed as they came.
          text: 'Blocked\x1b[31m - see https://www.spamcop.net/bl.shtml?$\x1b]0;pwned\x07',
          refusedFor: ['127.0.0.1'],
        },
      },
    });
    world = await startMailWorld({
      hosts: Object.fromEntries(Object.entries(hosts).map(([name, ip]) => [name, { ip, greeting: 'closed' as const }])),
      domains: {
        ...Object.fromEntries(Object.keys(hosts).map((name) => [name.slice(3), { mx: [name] }])),
        // The HELO name "On this computer" asks about: it resolves to the listed address.
        'sender.sift.test': { a: '127.0.0.1' },
      },
      forward: { zones: ['zen.spamhaus.org', 'bl.spamcop.net'], to: blocklists.resolver },
    });
    const common = { port: world.smtpPort, mailboxes: ['alice'], resolvConf: blocklists.resolvConf };
    const starting = [
      startExim({
        ...common,
        name: 'mx.exim-rbl.test',
        ip: hosts['mx.exim-rbl.test'],
        domains: ['exim-rbl.test'],
        // The message Exim's specification shows for a dnslists ACL (chapter 42).
        dnslist: {
          zone: 'zen.spamhaus.org',
          message: 'Rejected because $sender_host_address is in a black list at $dnslist_domain\\n$dnslist_text',
        },
      }),
      startExim({
        ...common,
        name: 'mx.exim-bare.test',
        ip: hosts['mx.exim-bare.test'],
        domains: ['exim-bare.test'],
        dnslist: { zone: 'zen.spamhaus.org' },
      }),
      startExim({
        ...common,
        name: 'mx.exim-denied.test',
        ip: hosts['mx.exim-denied.test'],
        domains: ['exim-denied.test'],
        denyHosts: '127.0.0.1',
      }),
      startExim({
        ...common,
        name: 'mx.exim-unread.test',
        ip: hosts['mx.exim-unread.test'],
        domains: ['exim-unread.test'],
        postmasterFirst: true,
        // A refusal of a listed client in words no entry of the table holds (T-Online's, sisimai's set).
        dnslist: {
          zone: 'zen.spamhaus.org',
          message:
            'IP=$sender_host_address - A problem occurred. (Ask your postmaster for help or to contact tosa@rx.t-online.de to clarify.) (BL)',
        },
      }),
      startPostfix({
        port: world.smtpPort,
        resolvConf: blocklists.resolvConf,
        name: 'mx.postfix-rbl.test',
        ip: hosts['mx.postfix-rbl.test'],
        domains: { 'postfix-rbl.test': ['alice'] },
        rblClient: 'zen.spamhaus.org',
      }),
    ];
    await Promise.all(starting.map((start) => start.then((server) => servers.push(server))));
  }, 120_000);
  afterAll(async () => {
    await Promise.all(servers.map((server) => server.stop()));
    await blocklists?.stop();
    await world?.close();
  });

  it('gives no address invalid or a charge, mailboxes that exist included, and names the list', async () => {
    const run = await startEngineService(world, { timeoutMs: 8000, perHostRate: 5 });
    try {
      const emails = Object.keys(hosts).flatMap((name) =>
        ['alice', 'nobody'].map((local) => `${local}@${name.slice(3)}`),
      );
      // postmaster@ is accepted before the blocklist: it must not make the refused mailboxes invalid.
      const { status, rows } = await runBatch(run, [...emails, 'postmaster@exim-unread.test'], 60_000);
      expect(status.status).toBe('complete');
      const reason = (domain: string) => rows.get(`alice@${domain}`)!.reason;
      for (const email of emails) expect(rows.get(email), email).toMatchObject({ result: 'unknown', billed: false });
      expect(rows.get('postmaster@exim-unread.test')).toMatchObject({ result: 'valid' });
      expect(reason('exim-unread.test')).toBe('refused_unread');
      expect(rows.get('alice@exim-unread.test')!.smtp_reply).toMatch(/^550 IP=127\.0\.0\.1 - A problem occurred/);
      // Exim's message and Postfix's default reply name the list; Exim's bare refusal names nothing.
      expect(rows.get('alice@exim-rbl.test')!.smtp_reply).toBe(
        '550 Rejected because 127.0.0.1 is in a black list at zen.spamhaus.org Listed, see https://www.spamhaus.org/query/ip/127.0.0.1',
      );
      expect(reason('exim-rbl.test')).toBe('sender_blocklisted');
      expect(rows.get('alice@exim-bare.test')!.smtp_reply).toBe('550 Administrative prohibition');
      expect(reason('exim-bare.test')).toBe('policy');
      expect(reason('exim-denied.test')).toBe('policy');
      expect(rows.get('alice@postfix-rbl.test')!.smtp_reply).toMatch(
        /^554 5\.7\.1 Service unavailable; Client host \[127\.0\.0\.1\] blocked using zen\.spamhaus\.org/,
      );
      expect(reason('postfix-rbl.test')).toBe('sender_blocklisted');
      expect(status.summary).toMatchObject({ invalid: 0, billed: 1 });
    } finally {
      await run.service.close();
    }
  }, 90_000);

  it('looks its own sending address up in the lists before a batch, and tells a refusal to answer from a listing', async () => {
    const settings = smtpSettings({ resolvers: [blocklists.resolver], sendingAddress: '127.0.0.1' });
    const listed = await checkSenderBlocklists(settings, 2000);
    expect(listed).toMatchObject({
      state: 'listed',
      address: '127.0.0.1',
      listed: [
        {
          name: 'Spamhaus',
          removalUrl: 'https://check.spamhaus.org/',
          text: 'Listed, see https://www.spamhaus.org/query/ip/127.0.0.1',
        },
      ],
    });
    // SpamCop's 127.255.255.254 is its refusal to answer, not a listing.
    expect(listed.unanswered.find((list) => list.name === 'SpamCop')?.why).toMatch(
      /refused to answer \(127\.255\.255\.254/,
    );
    expect(listed.message).toMatch(/127\.0\.0\.1 is listed on Spamhaus .*check\.spamhaus\.org/);

    const clean = await checkSenderBlocklists({ ...settings, sendingAddress: '127.0.0.9' }, 2000);
    expect(clean).toMatchObject({ state: 'clean', listed: [] });
    expect(clean.message).toMatch(/127\.0\.0\.9 is on none of the 2 lists asked \(Spamhaus, SpamCop\)/);
    const other = await checkSenderBlocklists({ ...settings, sendingAddress: '127.0.0.7' }, 2000);
    expect(other.listed).toEqual([
      expect.objectContaining({ name: 'SpamCop', text: 'Blocked - see https://www.spamcop.net/bl.shtml?127.0.0.7' }),
    ]);
    expect([...other.message].some((character) => character.charCodeAt(0) < 32)).toBe(false);
  });

  it('says in "On this computer" that the address of the HELO name is listed, asking the same resolvers', async () => {
    // The test's DNS answers the name, and asks rbldnsd about the lists, as a recursive resolver would.
    const check = await checkHeloName('sender.sift.test', [world.resolver], 2000);
    expect(check.addresses).toEqual(['127.0.0.1']);
    expect(check.blocklists).toMatchObject({ state: 'listed', listed: [{ name: 'Spamhaus' }] });
  });
});
