// A real bounce mailbox: a small campaign goes through Debian's Postfix to addresses on local domains, some
// of which do not exist, so Postfix writes its own bounce messages (RFC 3464) to the sender's mailbox, which
// Debian's Dovecot serves over IMAP. `sift connect imap` and `sift outcomes read` find exactly the addresses
// that bounced with their status codes, move the bounces to Sift's folder and leave an out-of-office reply,
// a person's reply and a message too large to be a bounce where they were; a second read reads only what is
// new; a wrong password keeps nothing; a connection cut between two pages goes on from the last one kept.
// Needs root, Postfix and Dovecot (.ci/run installs them); SIFT_REAL_MTA=required makes their absence fail.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, connect, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ImapFlow } from 'imapflow';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cacheKeysOf } from '../../../electron/core/cache/index.ts';
import { openVerdictCache } from '../../../electron/core/cache/verdict-cache-store.ts';
import {
  defaultHandledFolder,
  openOutcomeStore,
  readMailbox,
  type MailboxSettings,
} from '../../../electron/core/outcomes/index.ts';
import { freePort } from '../../support/free-port.ts';
import { appCaller } from '../../support/app-call.ts';
import { createAppRuntime } from '../../../electron/core/app/app-runtime.ts';
import { runSiftHere } from '../../support/run-sift-here.ts';
import { missingBounceMailbox, startBounceMailbox, type BounceMailbox } from '../../support/real-mta/bounce-mailbox.ts';

const missing = missingBounceMailbox();
if (missing.length > 0 && process.env.SIFT_REAL_MTA === 'required')
  throw new Error(`Postfix and Dovecot are required here, and missing: ${missing.join('; ')}`);
if (missing.length > 0) console.warn(`The bounce mailbox is skipped; missing: ${missing.join('; ')}`);

const ip = '127.0.0.46';
const exists = ['ann', 'bob', 'cat'].map((local) => `${local}@dest.test`);
const gone = ['nobody@dest.test', 'zed@dest.test', 'ghost@dest.test'];
const message = (to: string, subject = 'March news') =>
  `From: news@send.test\nTo: ${to}\nSubject: ${subject}\nMessage-ID: <${Math.random()}@send.test>\n\nHello from the shop.\n`;

let mailbox: BounceMailbox;
let dir: string;
let env: Record<string, string>;

async function folderCounts(): Promise<Record<string, number>> {
  const client = new ImapFlow({
    host: ip,
    port: mailbox.imap.port,
    secure: false,
    doSTARTTLS: false,
    auth: { user: mailbox.imap.user, pass: mailbox.imap.password },
    logger: false,
  });
  await client.connect();
  try {
    const counts: Record<string, number> = {};
    for (const folder of ['INBOX', defaultHandledFolder]) {
      const status = await client.status(folder, { messages: true }).catch(() => false as const);
      counts[folder] = status ? (status.messages ?? 0) : 0;
    }
    return counts;
  } finally {
    await client.logout();
  }
}

describe.skipIf(missing.length > 0)('a real bounce mailbox (Postfix writes, Dovecot serves)', () => {
  beforeAll(async () => {
    mailbox = await startBounceMailbox({
      ip,
      port: await freePort(),
      tlsPort: await freePort(),
      domains: { 'send.test': [], 'dest.test': ['ann', 'bob', 'cat'] },
    });
    dir = await mkdtemp(join(tmpdir(), 'sift-bounce-mailbox-'));
    env = { SIFT_DATA_DIR: join(dir, 'data') };
    // Sift called every address of the campaign valid on 3 March (live verdicts in the real cache).
    const key = cacheKeysOf(env.SIFT_DATA_DIR!);
    const cache = openVerdictCache(env.SIFT_DATA_DIR!);
    cache.remember('live', 'https://verify.example', Date.UTC(2026, 2, 3), [
      [...exists, ...gone].map((a) => [key(a), 'valid', 'accepted_email'] as const),
    ]);
    cache.close();
  }, 60_000);
  afterAll(async () => {
    await mailbox?.stop();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('finds exactly the addresses that bounced, moves their bounces and leaves every other message', async () => {
    mailbox.send(
      'bounces@send.test',
      [...exists.slice(0, 2), 'nobody@dest.test', 'zed@dest.test'],
      message('list@send.test'),
    );
    // VERP: the return path names the recipient.
    mailbox.send('bounces+ghost=dest.test@send.test', ['ghost@dest.test'], message('ghost@dest.test'));
    mailbox.send('bounces@send.test', ['cat@dest.test'], message('cat@dest.test'));
    mailbox.deliver(
      `From: ann@dest.test\nTo: bounces@send.test\nSubject: Out of office\nAuto-Submitted: auto-replied\n\nI am away.\n`,
    );
    mailbox.deliver(
      `From: bob@dest.test\nTo: bounces@send.test\nSubject: Re: March news\n\nPlease write to my new address.\n`,
    );
    await mailbox.settled();
    // 50 MB of photos: larger than any bounce, and than Postfix takes (put in the Maildir as it arrived).
    await mailbox.drop(
      Buffer.concat([
        Buffer.from('From: cat@dest.test\r\nTo: bounces@send.test\r\nSubject: Photos\r\n\r\n'),
        Buffer.alloc(50 * 1024 * 1024, 'QUJDREVGR0hJSktMTU5PUFFSU1RVVldYWVo=\r\n'),
      ]),
    );
    expect(await folderCounts()).toEqual({ INBOX: 5, [defaultHandledFolder]: 0 });

    // `sift connect imap` to the test's Dovecot, as bounces@send.test, with `password`.
    const connect = (port: number, password: string, ...more: string[]) =>
      runSiftHere(
        [
          'connect',
          'imap',
          '--name',
          'bounces',
          '--host',
          ip,
          '--port',
          String(port),
          '--user',
          mailbox.imap.user,
          ...more,
        ],
        { ...env, SIFT_IMAP_PASSWORD: password },
      );
    const refused = await connect(mailbox.imap.port, 'wrong', '--plain');
    expect(refused.code).toBe(3);
    expect(refused.stderr).toContain('refused the user name or password for bounces@send.test. Nothing is saved.');
    expect(refused.stderr).not.toContain('wrong');
    // TLS unless --plain: Dovecot's self-signed certificate is refused in words, and nothing is kept.
    const untrusted = await connect(mailbox.imap.tlsPort!, mailbox.imap.password);
    expect(untrusted.code).toBe(5);
    expect(untrusted.stderr).toMatch(/has a TLS certificate this computer does not trust \(\w+\)\. Nothing is saved\./);
    const connected = await connect(mailbox.imap.port, mailbox.imap.password, '--plain');
    expect(connected.code, connected.stderr).toBe(0);
    expect(connected.stdout).toContain('INBOX holds 5 messages');
    const elsewhere = await runSiftHere(
      ['connect', 'imap', '--name', 'far', '--host', 'imap.example.com', '--user', 'x', '--plain'],
      { ...env, SIFT_IMAP_PASSWORD: 'x' },
    );
    expect(elsewhere.code).toBe(2);
    expect(elsewhere.stderr).toContain('Plain IMAP is only for this computer');

    const read = await runSiftHere(['outcomes', 'read', 'bounces'], env);
    expect(read.code, read.stderr).toBe(0);
    expect(read.stdout).toContain('5 new messages: 2 bounces (3 hard, 0 soft, 0 that say nothing of the mailbox)');
    expect(read.stdout).toContain('2 that are not bounces, left where they are.');
    expect(read.stdout).toContain('1 message larger than a bounce was passed over, not fetched.');
    const outcomes = JSON.parse((await runSiftHere(['outcomes', 'list', '--json'], env)).stdout) as {
      address: string;
      kind: string;
      status: string;
      words: string;
    }[];
    expect(outcomes.map(({ address, kind, status }) => [address, kind, status]).sort()).toEqual(
      ['ghost@dest.test', 'nobody@dest.test', 'zed@dest.test'].map((address) => [address, 'hard', '5.1.1']),
    );
    expect(outcomes[0]!.words).toMatch(/unknown user: "\w+@dest\.test"/);
    expect(await folderCounts()).toEqual({ INBOX: 3, [defaultHandledFolder]: 2 });
    const ledger = JSON.parse((await runSiftHere(['outcomes', '--json'], env)).stdout);
    expect(ledger.byVerdict).toEqual([{ result: 'valid', checked: 6, sent: 0, hard: 3, soft: 0, refused: 0 }]);

    const again = await runSiftHere(['outcomes', 'read', 'bounces'], env);
    expect(again.stdout).toContain('0 new messages');
    mailbox.send('bounces@send.test', ['late@dest.test'], message('late@dest.test'));
    await mailbox.settled();
    const late = await runSiftHere(['outcomes', 'read', 'bounces'], env);
    expect(late.stdout).toContain('1 new message: 1 bounce (1 hard');
    const list = join(dir, 'next.csv');
    await writeFile(list, `email\n${[...exists, ...gone, 'late@dest.test'].join('\n')}\n`);
    const clean = await runSiftHere(['clean', list, '--json'], env);
    expect(JSON.parse(clean.stdout).summary).toMatchObject({ rows: 7, suppressed: 4, to_check: 3 });
  }, 180_000);

  it('goes on from the last page kept when the connection is cut mid-read', async () => {
    const settings: MailboxSettings = {
      name: 'cut',
      host: ip,
      port: 0,
      tls: false,
      user: mailbox.imap.user,
      folder: 'INBOX',
      handledFolder: 'Sift-cut',
      connectedAt: 0,
    };
    // The handled folder of the first test holds its bounces: read them again as a folder of their own.
    settings.folder = defaultHandledFolder;
    const cutting = await cuttingProxy(mailbox.imap.port, 2);
    const store = openOutcomeStore(env.SIFT_DATA_DIR!);
    try {
      const source = store.ensureSource('cut', 'imap');
      const failed = await readMailbox(
        env.SIFT_DATA_DIR!,
        store,
        source,
        { ...settings, port: cutting.port },
        mailbox.imap.password,
        { pageMessages: 1 },
      ).catch((error: Error) => error);
      expect(String(failed)).toMatch(/could not be read \(/);
      const kept = store.page({ search: '', offset: 0, limit: 100 }).filter((row) => row.source === 'cut');
      expect(kept.length).toBeGreaterThan(0);
      expect(kept.length).toBeLessThan(4);
      const rest = await readMailbox(
        env.SIFT_DATA_DIR!,
        store,
        store.source('cut')!,
        { ...settings, port: mailbox.imap.port },
        mailbox.imap.password,
        { pageMessages: 1 },
      );
      expect(rest.read).toBeLessThan(3);
      const all = store.page({ search: '', offset: 0, limit: 100 }).filter((row) => row.source === 'cut');
      expect(all.map((row) => row.address).sort()).toEqual([
        'ghost@dest.test',
        'late@dest.test',
        'nobody@dest.test',
        'zed@dest.test',
      ]);
    } finally {
      store.close();
      await cutting.close();
    }
  }, 120_000);

  it('is connected and read from the app: the password tried, kept in main, never answered', async () => {
    mailbox.send('bounces@send.test', ['app.gone@dest.test'], message('app.gone@dest.test'));
    await mailbox.settled();
    const appData = await mkdtemp(join(tmpdir(), 'sift-bounce-app-'));
    const runtime = await createAppRuntime({ dataDir: appData, appVersion: '1.0.0' });
    const seen: string[] = [];
    const call = appCaller('web', seen);
    try {
      const request = { name: 'bounces', host: ip, port: mailbox.imap.port, user: mailbox.imap.user, plain: true };
      await expect(call(runtime, 'outcomes:connectMailbox', { ...request, password: 'wrong' })).rejects.toThrow(
        /unauthorized .*refused the user name or password/,
      );
      expect(await call(runtime, 'outcomes:mailboxes', {})).toEqual([]);
      const connected = await call(runtime, 'outcomes:connectMailbox', { ...request, password: mailbox.imap.password });
      expect(connected).toEqual([
        {
          name: 'bounces',
          host: ip,
          port: mailbox.imap.port,
          tls: false,
          user: mailbox.imap.user,
          folder: 'INBOX',
          readAt: null,
        },
      ]);
      const read = await call<{ bounces: number; hard: number; suppressed: number }>(runtime, 'outcomes:readMailbox', {
        name: 'bounces',
      });
      // INBOX holds the auto-reply, the reply, the large message and this one bounce: one bounce read.
      expect(read).toMatchObject({ bounces: 1, hard: 1, suppressed: 1 });
      const ledger = await call<{ sources: { name: string }[] }>(runtime, 'outcomes:ledger', {});
      expect(ledger.sources.map((source) => source.name)).toEqual(['bounces']);
      expect(seen.join('\n')).not.toContain(mailbox.imap.password);
      expect(await call(runtime, 'outcomes:removeMailbox', { name: 'bounces' })).toEqual([]);
    } finally {
      await runtime.close();
      await rm(appData, { recursive: true, force: true });
    }
  }, 120_000);
});

/** A loopback TCP proxy that cuts its first connection as the server starts sending the `nth` message's body. */
async function cuttingProxy(upstreamPort: number, nth: number): Promise<{ port: number; close(): Promise<void> }> {
  let first = true;
  const sockets: Socket[] = [];
  const server: Server = createServer((client) => {
    const upstream = connect({ host: ip, port: upstreamPort });
    sockets.push(client, upstream);
    const cut = first;
    first = false;
    let bodies = 0;
    client.pipe(upstream);
    upstream.on('data', (chunk: Buffer) => {
      bodies += chunk.toString('latin1').match(/BODY\[\] \{/g)?.length ?? 0;
      if (cut && bodies >= nth) {
        client.destroy();
        upstream.destroy();
        return;
      }
      client.write(chunk);
    });
    client.on('error', () => upstream.destroy());
    upstream.on('error', () => client.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, ip, resolve));
  return {
    port: (server.address() as { port: number }).port,
    close: () =>
      new Promise((resolve) => (sockets.forEach((socket) => socket.destroy()), server.close(() => resolve()))),
  };
}
