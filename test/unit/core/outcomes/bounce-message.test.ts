// Bounces as they arrive in a bounce mailbox, read: RFC 3464 reports (Postfix, Exchange), Exim's and Gmail's
// X-Failed-Recipients, qmail's and Yahoo's paragraphs; a refusal that blames the sender is never a hard
// bounce; an out-of-office reply, a complaint and a person's reply are no bounces (fixtures: SOURCES.md).
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { readMessage } from '../../../../electron/core/outcomes/bounce-message.ts';
import { verpRecipient } from '../../../../electron/core/outcomes/verp.ts';

const fixture = (name: string) => readFileSync(new URL(`../../../fixtures/bounces/${name}`, import.meta.url));
const read = async (name: string) => readMessage(fixture(name));

describe('reading a bounce', () => {
  it.each([
    ['postfix-user-unknown.eml', 'rfc3464', 'kijitora@example.org', '5.1.1'],
    ['exchange-recipient-not-found.eml', 'rfc3464', 'mikeneko@example.co.jp', '5.1.1'],
    ['exim-unknown-user.eml', 'x-failed-recipients', 'kijitora@neko.example.co.jp', '5.1.1'],
    ['gmail-user-unknown.eml', 'x-failed-recipients', 'userunknown@example.jp', '5.1.1'],
    ['qmail-unknown-user.eml', 'qmail', 'kijitora@example.ne.jp', '5.5.0'],
    ['yahoo-user-unknown.eml', 'qmail', 'kijitora@example.org', '5.1.1'],
  ])('%s: a hard bounce of the address sent to', async (name, format, address, status) => {
    const message = await read(name);
    expect(message).toMatchObject({ kind: 'bounce', format });
    if (message.kind !== 'bounce') return;
    expect(message.recipients).toEqual([
      expect.objectContaining({ address, kind: 'hard', reason: 'mailbox_not_found', status }),
    ]);
    expect(message.date).toBeGreaterThan(0);
  });

  it('keeps a refusal that blames the sender apart: never a hard bounce', async () => {
    for (const [name, reason] of [
      ['blocklisted-sender.eml', 'sender_blocklisted'],
      ['exim-policy-blames-sender.eml', 'policy'],
    ]) {
      const message = await read(name!);
      expect(message.kind === 'bounce' && message.recipients.map((each) => [each.kind, each.reason])).toEqual([
        ['refused', reason],
      ]);
    }
  });

  it('reads a diagnostic naming another address than the recipient as not about its mailbox', async () => {
    // Postfix's report for kijitora@example.org, which an alias sent on to r@mx.example.jp, with the
    // Diagnostic-Code a remote server might have given instead of procmail's.
    const withDiagnostic = (diagnostic: string) =>
      readMessage(
        fixture('postfix-user-unknown.eml')
          .toString('latin1')
          .replace(/^Diagnostic-Code: .*(\r?\n[ \t].*)*/m, `Diagnostic-Code: smtp; ${diagnostic}`),
      );
    // The address after the alias is still the recipient: a hard bounce of the address sent to.
    const forwarded = await withDiagnostic('550 5.1.1 <r@mx.example.jp>: Recipient address rejected: User unknown');
    expect(forwarded.kind === 'bounce' && forwarded.recipients).toEqual([
      expect.objectContaining({ address: 'kijitora@example.org', kind: 'hard', reason: 'mailbox_not_found' }),
    ]);
    // Someone else's address (the sending one) under a 5.1.1: kept, never a hard bounce.
    const other = await withDiagnostic('550 5.1.1 <news@sender.example>: User unknown in local recipient table');
    expect(other.kind === 'bounce' && other.recipients).toEqual([
      expect.objectContaining({ address: 'kijitora@example.org', kind: 'refused' }),
    ]);
  });

  it('reads a delayed delivery to a full mailbox as soft', async () => {
    const message = await read('postfix-delayed.eml');
    expect(message.kind === 'bounce' && message.recipients).toEqual([
      expect.objectContaining({ address: 'kijitora@example.org', kind: 'soft', status: '4.2.2' }),
    ]);
  });

  it.each([
    ['out-of-office.eml', 'auto-reply'],
    ['complaint-arf.eml', 'complaint'],
    ['plain-reply.eml', 'not a bounce'],
    ['dsn-without-recipient.eml', 'no recipient'],
  ])('%s is no bounce (%s)', async (name, why) => {
    expect(await read(name)).toMatchObject({ kind: 'other', why });
  });

  it('reads broken bytes as no bounce, without throwing', async () => {
    expect((await read('malformed.eml')).kind).toBe('other');
    expect((await readMessage('')).kind).toBe('other');
  });

  it('finds the recipient of a report that names none from a VERP return path', async () => {
    const text = fixture('dsn-without-recipient.eml')
      .toString('utf8')
      .replace('To: bounces@send.example.jp', 'To: bounces+Ann.Lee=shop.example@send.example.jp');
    const message = await readMessage(text);
    expect(message.kind === 'bounce' && message.recipients).toEqual([
      expect.objectContaining({ address: 'ann.lee@shop.example', kind: 'hard' }),
    ]);
    expect(verpRecipient('<bounces+bob=x.example@send.example>')).toBe('bob@x.example');
    expect(verpRecipient('bounces@send.example')).toBeUndefined();
  });
});
