// The local engine's small parts: what a reply means, who runs a mail host, the flags of `sift service`,
// and a conversation that refuses to send DATA even when asked to.
import { createServer, type AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { smtpSettingsFromFlags } from '../../../../../../electron/cli/smtp-flags.ts';
import { UsageError } from '../../../../../../electron/cli/cli-options.ts';
import { budgetKeyOf, providerOfMailHost } from '../../../../../../electron/core/service/engines/live/mail-hosts.ts';
import { isFreeMailboxDomain } from '../../../../../../electron/core/email/mailbox-providers.ts';
import { meaningOf } from '../../../../../../electron/core/service/engines/live/smtp-replies.ts';
import { openSmtpSession, parseReply } from '../../../../../../electron/core/service/engines/live/smtp-session.ts';

describe('what a reply to RCPT TO means', () => {
  const meaning = (line: string) => meaningOf(parseReply([line]));
  it('reads the basic and the enhanced code', () => {
    expect(meaning('250 2.1.5 OK')).toEqual({ kind: 'accepted' });
    expect(meaning('251 User not local; will forward')).toEqual({ kind: 'accepted' });
    expect(meaning('550 5.1.1 No such user')).toEqual({ kind: 'rejected', reason: 'mailbox_not_found' });
    expect(meaning('553 mailbox name not allowed')).toEqual({ kind: 'rejected', reason: 'mailbox_not_found' });
    // In words Sift cannot read and with no mailbox code: not evidence about the mailbox.
    expect(meaning('550 Zzz')).toEqual({ kind: 'unread', reason: 'refused_unread' });
    expect(meaning('550 5.1.1 Zzz')).toEqual({ kind: 'rejected', reason: 'mailbox_not_found' });
    expect(meaning('550 5.1.1 Access denied')).toEqual({ kind: 'unclear', reason: 'policy' });
    expect(meaning('452 4.5.3 Recipients belong to multiple regions ATTR38 [VE1EUR01FT019]')).toEqual({
      kind: 'alone',
    });
    // A temporary refusal of the sender waits on the greylisting schedule; it is not a rate reply.
    expect(meaning('450 4.7.25 Client host rejected: cannot find your hostname, [203.0.113.5]')).toEqual({
      kind: 'deferred',
      reason: 'sender_reverse_dns',
      blamesSender: true,
    });
    expect(meaning('554 5.1.10 Recipient address rejected')).toEqual({ kind: 'rejected', reason: 'mailbox_not_found' });
    expect(meaning('451 4.7.1 Greylisted')).toEqual({ kind: 'deferred', reason: 'greylisted' });
    expect(meaning('452 4.5.3 Too many recipients')).toEqual({ kind: 'busy', reason: 'rate_limited' });
    expect(meaning('421 4.7.0 Try again later')).toEqual({ kind: 'busy', reason: 'rate_limited' });
    // Refusing us says nothing about the mailbox.
    expect(meaning('550 5.7.1 Client host rejected')).toEqual({
      kind: 'unclear',
      reason: 'sender_blocklisted',
      blamesSender: true,
    });
    expect(meaning('552 5.2.2 Mailbox full')).toEqual({ kind: 'unclear', reason: 'mailbox_full' });
    expect(meaning('500 what?')).toEqual({ kind: 'unclear', reason: 'server_error' });
  });

  it('joins a multi-line reply', () => {
    expect(parseReply(['250-mx.example.com', '250-STARTTLS', '250 SIZE 1000'])).toEqual({
      code: 250,
      text: 'mx.example.com STARTTLS SIZE 1000',
    });
  });
});

describe('mail hosts', () => {
  it('knows the big providers by their MX names, and gives each of them one budget', () => {
    expect(providerOfMailHost('gmail-smtp-in.l.google.com.')).toBe('Google');
    expect(providerOfMailHost('ASPMX.L.GOOGLE.COM')).toBe('Google');
    expect(providerOfMailHost('acme-com.mail.protection.outlook.com')).toBe('Microsoft');
    expect(providerOfMailHost('mta5.am0.yahoodns.net')).toBe('Yahoo');
    expect(providerOfMailHost('mx01.mail.icloud.com')).toBe('Apple');
    expect(providerOfMailHost('mail.notgoogle.com')).toBe('Other');
    const host = (name: string, address: string) => ({ name, addresses: [address] });
    expect(budgetKeyOf(host('alt1.aspmx.l.google.com', '192.0.2.1'))).toBe(
      budgetKeyOf(host('aspmx.l.google.com', '192.0.2.2')),
    );
    // Tenants' own MX names on one shared server spend one budget; another server has its own.
    expect(budgetKeyOf(host('acme.mail.hoster.test', '192.0.2.7'))).toBe(
      budgetKeyOf(host('widgets.mail.hoster.test', '192.0.2.7')),
    );
    expect(budgetKeyOf(host('acme.mail.hoster.test', '192.0.2.7'))).not.toBe(
      budgetKeyOf(host('acme.mail.hoster.test', '192.0.2.8')),
    );
    // Each egress is judged apart by the server, so each has its own budget there.
    expect(budgetKeyOf(host('mx.acme.test', '192.0.2.7'), 'socks5://10.0.0.1:1080')).not.toBe(
      budgetKeyOf(host('mx.acme.test', '192.0.2.7')),
    );
    expect(isFreeMailboxDomain('gmail.com')).toBe(true);
    expect(isFreeMailboxDomain('acme.com')).toBe(false);
  });
});

describe('sift service engine flags', () => {
  it('turns flags into settings', () => {
    expect(
      smtpSettingsFromFlags({
        helo: 'mail.example.com',
        'mail-from': 'bounce@example.com',
        'sending-address': '203.0.113.5',
        resolver: ['127.0.0.1:5353', '::1', '[::1]:53'],
        'smtp-port': '2525',
        'per-host-rate': '0.5',
        'per-host-concurrency': '3',
        concurrency: '50',
        'smtp-timeout': '7.5',
        'greylist-retry': '1, 4,15',
      }),
    ).toEqual({
      helo: 'mail.example.com',
      mailFrom: 'bounce@example.com',
      sendingAddress: '203.0.113.5',
      resolvers: ['127.0.0.1:5353', '::1', '[::1]:53'],
      port: 2525,
      perHostRate: 0.5,
      perHostConcurrency: 3,
      concurrency: 50,
      timeoutMs: 7500,
      greylistRetryMs: [60_000, 240_000, 900_000],
    });
  });

  it('refuses each bad value with a sentence that says what was expected', () => {
    const refusal = (values: Parameters<typeof smtpSettingsFromFlags>[0]) => {
      try {
        smtpSettingsFromFlags(values);
      } catch (error) {
        expect(error).toBeInstanceOf(UsageError);
        return (error as Error).message;
      }
      throw new Error('accepted');
    };
    expect(refusal({ helo: 'not a name' })).toContain('--helo (or SIFT_HELO) must be a host name');
    expect(refusal({ 'mail-from': 'nobody' })).toContain('--mail-from (or SIFT_MAIL_FROM) must be an email address');
    expect(refusal({ resolver: ['dns.google'] })).toContain('--resolver must be an IP address');
    expect(refusal({ 'sending-address': 'mail.example.com' })).toContain(
      '--sending-address (or SIFT_SENDING_ADDRESS) must be an IP address',
    );
    expect(refusal({ resolver: ['127.0.0.1:99999'] })).toContain('--resolver port');
    expect(refusal({ 'smtp-port': '0' })).toContain('--smtp-port must be from 1 to 65535');
    expect(refusal({ 'per-host-rate': '-1' })).toContain('--per-host-rate must be a number above 0');
    expect(refusal({ concurrency: '2.5' })).toContain('--concurrency must be a whole number above 0');
    expect(refusal({ 'greylist-retry': '5,,10' })).toContain('--greylist-retry');
    expect(refusal({ proxy: ['http://proxy.test:8080'] })).toContain('Only SOCKS5 proxies are supported');
    // A refused proxy is quoted with its password masked.
    const noPort = refusal({ proxy: ['socks5://me:hunter2@proxy.test'] });
    expect(noPort).toContain('needs a host and a port');
    expect(noPort).toContain('socks5://me:•••@proxy.test');
    expect(noPort).not.toContain('hunter2');
  });

  it('takes proxies from --proxy and SIFT_PROXY, each once, named without the password', () => {
    const { proxies } = smtpSettingsFromFlags(
      { proxy: ['socks5://me:p%40ss@10.0.0.1:1080', 'socks5://[::1]:1081'] },
      { SIFT_PROXY: ' socks5://10.0.0.1:1080  socks5://proxy.test:1082 ' },
    );
    expect(proxies).toEqual([
      { label: 'socks5://10.0.0.1:1080', host: '10.0.0.1', port: 1080, userId: 'me', password: 'p@ss' },
      { label: 'socks5://[::1]:1081', host: '::1', port: 1081 },
      { label: 'socks5://proxy.test:1082', host: 'proxy.test', port: 1082 },
    ]);
    expect(smtpSettingsFromFlags({}, {})).not.toHaveProperty('proxies');
  });
});

describe('an SMTP conversation', () => {
  it('never sends DATA, BDAT or a line that smuggles in another command', async () => {
    const received: string[] = [];
    const server = createServer((socket) => {
      socket.write('220 test ready\r\n');
      socket.on('data', (chunk) => {
        received.push(chunk.toString());
        socket.write('250 OK\r\n');
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const session = await openSmtpSession({
        address: '127.0.0.1',
        port: (server.address() as AddressInfo).port,
        servername: 'test',
        timeoutMs: 2000,
      });
      expect(session.banner).toEqual({ code: 220, text: 'test ready' });
      await expect(session.send('DATA')).rejects.toThrow('Sift never sends this');
      await expect(session.send('bdat 100 LAST')).rejects.toThrow('Sift never sends this');
      await expect(session.send('RCPT TO:<a@b.test>\r\nDATA')).rejects.toThrow('Sift never sends this');
      expect(await session.send('NOOP')).toMatchObject({ code: 250 });
      await session.close();
      expect(received.join('')).toBe('NOOP\r\nQUIT\r\n');
    } finally {
      server.close();
    }
  });
});
