// Mail servers that misbehave, through the whole engine: replies that never end (endless continuation
// lines, one line with no end), several at once; a reply before its question; escape sequences in a reply.
// Each ends its conversation as a protocol error (unknown, server_error, never billed), the client hangs up
// on the flood (what each server managed to write stays bounded), and the service goes on answering.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runBatch, startEngineService, type EngineRun } from '../../support/engine-harness.ts';
import { startMailWorld, type MailWorld } from '../../support/mail-world.ts';
import type { RawScript } from '../../support/raw-smtp-host.ts';

/** An ordinary server but for what `odd` says for a command; `alice` exists, nobody else does. */
const server =
  (odd: (command: string | undefined) => ReturnType<RawScript> | 'usual'): RawScript =>
  (command) => {
    const answer = odd(command);
    if (answer !== 'usual') return answer;
    if (command === undefined) return '220 mx ESMTP\r\n';
    if (/^RCPT TO:<alice@/i.test(command)) return '250 2.1.5 Ok\r\n';
    if (/^RCPT TO:/i.test(command)) return '550 5.1.1 <x>: Recipient address rejected: User unknown\r\n';
    return '250 Ok\r\n';
  };
const floodsAfterEhlo = (kind: 'continuation' | 'endless-line') =>
  server((command) => (command && /^EHLO/i.test(command) ? { flood: kind } : 'usual'));

let world: MailWorld;
let run: EngineRun;

beforeAll(async () => {
  world = await startMailWorld({
    hosts: {
      'mx.lines.test': { ip: '127.0.4.1', raw: floodsAfterEhlo('continuation') },
      'mx.line.test': { ip: '127.0.4.2', raw: floodsAfterEhlo('endless-line') },
      'mx.lines2.test': { ip: '127.0.4.3', raw: floodsAfterEhlo('continuation') },
      'mx.lines3.test': { ip: '127.0.4.4', raw: floodsAfterEhlo('endless-line') },
      'mx.early.test': {
        ip: '127.0.4.5',
        raw: server((command) => (command === undefined ? '220 mx ESMTP\r\n250 2.1.5 Ok\r\n' : 'usual')),
      },
      'mx.escapes.test': {
        ip: '127.0.4.6',
        raw: server((command) =>
          command && /^RCPT TO:<bob@/i.test(command)
            ? '550 5.1.1 \x1b[31mNo such user\x1b[0m\x07 here\x1b]0;pwned\x07\r\n'
            : 'usual',
        ),
      },
      'mx.fine.test': { ip: '127.0.4.7', raw: server(() => 'usual') },
    },
    domains: Object.fromEntries(
      ['lines', 'line', 'lines2', 'lines3', 'early', 'escapes', 'fine'].map((name) => [
        `${name}.test`,
        { mx: [`mx.${name}.test`] },
      ]),
    ),
  });
  run = await startEngineService(world);
});
afterAll(async () => {
  await run?.service.close();
  await world?.close();
});

describe('servers that misbehave', () => {
  it('survives floods from several servers at once, hanging up on each, and answers the rest', async () => {
    const { status, rows } = await runBatch(
      run,
      [
        'alice@lines.test',
        'alice@line.test',
        'alice@lines2.test',
        'alice@lines3.test',
        'alice@fine.test',
        'bob@fine.test',
      ],
      15_000,
    );
    expect(status.status).toBe('complete');
    for (const email of ['alice@lines.test', 'alice@line.test', 'alice@lines2.test', 'alice@lines3.test']) {
      expect(rows.get(email)).toMatchObject({ result: 'unknown', reason: 'server_error', billed: false });
      expect(rows.get(email)!.smtp_reply).toMatch(/sent (a reply|over)/);
    }
    expect(rows.get('alice@fine.test')).toMatchObject({ result: 'valid', billed: true });
    expect(rows.get('bob@fine.test')).toMatchObject({ result: 'invalid', reason: 'mailbox_not_found' });
    // Each flood could write no more than the sockets' buffers hold before Sift hung up, on every try
    // (three): far below the 64 MB a flood goes on to when nobody hangs up. Counted in bytes, so the check
    // holds on a loaded machine; nothing more than these bytes was ever read, so nothing more was kept.
    for (const host of ['mx.lines.test', 'mx.line.test', 'mx.lines2.test', 'mx.lines3.test']) {
      expect(world.logs[host]!.connections).toBe(3);
      expect(world.logs[host]!.written).toBeLessThan(3 * 16 * 1024 * 1024);
    }
  });

  it('never takes a reply that came before its question as the answer to the next one', async () => {
    const { rows } = await runBatch(run, ['alice@early.test', 'bob@early.test']);
    for (const email of ['alice@early.test', 'bob@early.test']) {
      expect(rows.get(email)).toMatchObject({ result: 'unknown', reason: 'server_error', billed: false });
      expect(rows.get(email)!.smtp_reply).toMatch(/out of turn/);
    }
  });

  it('drops escape sequences and control characters from a reply before it is kept', async () => {
    const { rows } = await runBatch(run, ['bob@escapes.test']);
    expect(rows.get('bob@escapes.test')).toMatchObject({
      result: 'invalid',
      reason: 'mailbox_not_found',
      smtp_reply: '550 5.1.1 No such user here',
    });
  });
});
