// Live keys on Sift's own service ask real mail servers: here, servers on loopback scripted per mailbox,
// found through a DNS server on loopback. Verdicts, reasons, the SMTP reply, provider and billing as a
// user reads them from the API, and what the servers saw: EHLO with our name, STARTTLS, never DATA.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMailWorld, type MailWorld } from '../../../../../support/mail-world.ts';
import { runBatch, startEngineService, type EngineRun } from '../../../../../support/engine-harness.ts';

let world: MailWorld;
let run: EngineRun;

beforeAll(async () => {
  world = await startMailWorld({
    hosts: {
      'mx1.acme.test': {
        ip: '127.0.0.2',
        startTls: true,
        mailboxes: { alice: 'accept', carol: 'full', dave: 'policy', info: 'accept' },
      },
      'mx.catchall.test': { ip: '127.0.0.3', others: 'accept' },
      'amx.test': { ip: '127.0.0.4', mailboxes: { post: 'accept' } },
      'dead.backup.test': { ip: '127.0.0.5', greeting: 'closed' },
      'mx2.backup.test': { ip: '127.0.0.6', mailboxes: { erin: 'accept' } },
      'gmail-smtp-in.l.google.com': { ip: '127.0.0.7', mailboxes: { frank: 'accept' } },
    },
    domains: {
      'acme.test': { mx: ['mx1.acme.test'] },
      'catchall.test': { mx: ['mx.catchall.test'] },
      'amx.test': { a: '127.0.0.4' },
      'backup.test': { mx: ['dead.backup.test', 'mx2.backup.test'] },
      'gmail.com': { mx: ['gmail-smtp-in.l.google.com'] },
      'nullmx.test': 'null_mx',
      'gone.test': 'nxdomain',
    },
  });
  run = await startEngineService(world);
});
afterAll(async () => {
  await run?.service.close();
  await world?.close();
});

describe('a live batch on the local engine', () => {
  it('gives each address the verdict its mail server gave, keeps the reply, and bills only definitive verdicts', async () => {
    const { status, rows } = await runBatch(run, [
      'alice@acme.test',
      'bob@acme.test',
      'carol@acme.test',
      'dave@acme.test',
      'info@acme.test',
      'anyone@catchall.test',
      'post@amx.test',
      'erin@backup.test',
      'frank@gmail.com',
      'someone@nullmx.test',
      'someone@gone.test',
    ]);
    const verdict = (email: string) => {
      const row = rows.get(email)!;
      return [row.result, row.reason, row.billed];
    };
    expect(status.status).toBe('complete');
    expect(verdict('alice@acme.test')).toEqual(['valid', 'accepted_email', true]);
    expect(verdict('bob@acme.test')).toEqual(['invalid', 'mailbox_not_found', true]);
    expect(rows.get('bob@acme.test')!.smtp_reply).toBe('550 5.1.1 No such user here');
    // acme's server offers STARTTLS with a self-signed certificate: used, and noted on the row.
    expect(rows.get('bob@acme.test')!.smtp_tls).toBe('certificate_not_trusted');
    expect(rows.get('post@amx.test')!.smtp_tls).toBe('none');
    // A full mailbox or a policy refusal says nothing certain about the address: unknown, and free.
    expect(verdict('carol@acme.test')).toEqual(['unknown', 'mailbox_full', false]);
    expect(verdict('dave@acme.test')).toEqual(['unknown', 'policy', false]);
    expect(rows.get('info@acme.test')).toMatchObject({ result: 'valid', role: true });
    expect(verdict('anyone@catchall.test')).toEqual(['catch_all', 'accept_all_domain', true]);
    // No MX: the domain's own address is its mail host (RFC 5321 §5.1).
    expect(verdict('post@amx.test')).toEqual(['valid', 'accepted_email', true]);
    // The first MX refuses connections; the next one answers.
    expect(verdict('erin@backup.test')).toEqual(['valid', 'accepted_email', true]);
    expect(rows.get('frank@gmail.com')).toMatchObject({ result: 'valid', provider: 'Google', free: true });
    expect(rows.get('alice@acme.test')).toMatchObject({ provider: 'Other', free: false });
    expect(verdict('someone@nullmx.test')).toEqual(['invalid', 'null_mx', true]);
    expect(verdict('someone@gone.test')).toEqual(['invalid', 'invalid_domain', true]);
    expect(status.summary).toMatchObject({ valid: 5, invalid: 3, catch_all: 1, unknown: 2, billed: 9 });

    const account = (await run.api('GET', '/account')).body;
    expect(account).toMatchObject({ free_remaining: 91, balance: 1000, port_25: 'open' });
  });

  it('talks to each server the way a polite verifier does, and never sends DATA', () => {
    const acme = world.logs['mx1.acme.test']!.commands;
    expect(acme).toContain('EHLO probe.sift.test');
    expect(acme).toContain('STARTTLS');
    expect(acme).toContain('MAIL FROM:<bounces@sift.test>');
    expect(acme).toContain('RSET');
    expect(acme).toContain('QUIT');
    // One conversation for the domain's addresses, with one catch-all probe before them.
    expect(world.logs['mx1.acme.test']!.connections).toBe(1);
    const probes = world.logs['mx1.acme.test']!.rcpts.map((rcpt) => rcpt.address);
    expect(probes[0]).toMatch(/^sift-[0-9a-f]+@acme\.test$/);
    expect(probes.slice(1).sort()).toEqual(
      ['alice', 'bob', 'carol', 'dave', 'info'].map((local) => `${local}@acme.test`),
    );
    for (const log of Object.values(world.logs)) {
      expect(log.commands.filter((command) => /^(DATA|BDAT)\b/i.test(command))).toEqual([]);
    }
  });

  it('answers one address at once, billed only when the answer is definitive', async () => {
    const valid = await run.api('POST', '/verify', { email: 'alice@acme.test' });
    expect(valid.body).toMatchObject({ result: 'valid', billed: true, smtp_reply: expect.stringMatching(/^250/) });
    const full = await run.api('POST', '/verify', { email: 'carol@acme.test' });
    expect(full.body).toMatchObject({ result: 'unknown', reason: 'mailbox_full', billed: false });
    // The domain's catch-all finding was kept: no second probe of a made-up address.
    const made = world.logs['mx1.acme.test']!.rcpts.filter((rcpt) => rcpt.address.startsWith('sift-'));
    expect(made).toHaveLength(1);
  });
});
