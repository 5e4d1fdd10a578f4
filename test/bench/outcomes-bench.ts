// Outcomes in the bench (docs/speed.md): a bounce mailbox of `messages` real-form DSNs served by Debian's
// Dovecot (root; test/real-mta/install-mail-servers.sh installs it), read by Sift (every message parsed,
// its bounce kept, the do-not-mail list and the verdict cache written, each bounce moved to Sift's folder)
// against a bare imapflow fetch of the same messages; then the accuracy ledger of a data folder with
// `checked` live verdicts and those outcomes. Figures and ratios only, never asserted.
import { chown, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ImapFlow } from 'imapflow';
import { cacheKeysOf } from '../../electron/core/cache/index.ts';
import { openVerdictCache } from '../../electron/core/cache/verdict-cache-store.ts';
import {
  accuracyLedger,
  openOutcomeStore,
  readMailbox,
  type MailboxSettings,
} from '../../electron/core/outcomes/index.ts';
import { freePort } from '../support/free-port.ts';
import { missingBounceMailbox, startBounceMailbox } from '../support/real-mta/bounce-mailbox.ts';

const fmt = (value: number, digits = 2) => value.toFixed(digits);

/** A DSN as Postfix writes one for an unknown user (its report fields; the original message's headers). */
const dsn = (i: number) =>
  [
    'Return-Path: <>',
    `Date: Mon, 3 Mar 2026 10:${String(i % 60).padStart(2, '0')}:00 +0000`,
    'From: MAILER-DAEMON@mail.send.test (Mail Delivery System)',
    'Subject: Undelivered Mail Returned to Sender',
    'To: bounces@send.test',
    'Auto-Submitted: auto-replied',
    'MIME-Version: 1.0',
    `Content-Type: multipart/report; report-type=delivery-status; boundary="B${i}"`,
    '',
    `--B${i}`,
    'Content-Description: Notification',
    'Content-Type: text/plain; charset=us-ascii',
    '',
    'This is the mail system at host mail.send.test.',
    '',
    `<p${i}@dest.test>: unknown user: "p${i}@dest.test"`,
    '',
    `--B${i}`,
    'Content-Description: Delivery report',
    'Content-Type: message/delivery-status',
    '',
    'Reporting-MTA: dns; mail.send.test',
    '',
    `Final-Recipient: rfc822; p${i}@dest.test`,
    `Original-Recipient: rfc822;p${i}@dest.test`,
    'Action: failed',
    'Status: 5.1.1',
    `Diagnostic-Code: X-Postfix; unknown user: "p${i}@dest.test"`,
    '',
    `--B${i}`,
    'Content-Description: Undelivered Message Headers',
    'Content-Type: text/rfc822-headers',
    '',
    'From: news@send.test',
    `To: p${i}@dest.test`,
    'Subject: March news',
    '',
    `--B${i}--`,
    '',
  ].join('\r\n');

export async function runOutcomesBench(options = { messages: 100_000, checked: 1_000_000 }): Promise<void> {
  const missing = missingBounceMailbox();
  if (missing.length > 0) {
    console.log(`\noutcomes: skipped (missing: ${missing.join('; ')})`);
    return;
  }
  const { messages, checked } = options;
  console.log(
    `\noutcomes: ${messages.toLocaleString('en')} DSNs in a Dovecot bounce mailbox, ${checked.toLocaleString('en')} live verdicts`,
  );
  const mailbox = await startBounceMailbox({
    ip: '127.0.0.47',
    port: await freePort(),
    domains: { 'send.test': [], 'dest.test': [] },
  });
  const dataDir = await mkdtemp(join(tmpdir(), 'sift-outcomes-bench-'));
  try {
    const box = await mailbox.maildir();
    for (let from = 0; from < messages; from += 1000) {
      await Promise.all(
        Array.from({ length: Math.min(1000, messages - from) }, async (_, j) => {
          const path = join(box, 'new', `${from + j}.bench.send.test`);
          await writeFile(path, dsn(from + j));
          await chown(path, 8, 8);
        }),
      );
    }
    // Live verdicts for `checked` addresses, the bounced ones among them.
    const key = cacheKeysOf(dataDir);
    const cache = openVerdictCache(dataDir);
    const pages = function* () {
      for (let from = 0; from < checked; from += 10_000)
        yield Array.from(
          { length: Math.min(10_000, checked - from) },
          (_, j) => [key(`p${from + j}@dest.test`), 'valid', null] as const,
        );
    };
    cache.remember('live', 'https://verify.example', Date.UTC(2026, 2, 1), pages());
    cache.close();

    const { host, port, user, password } = mailbox.imap;
    const client = new ImapFlow({
      host,
      port,
      secure: false,
      doSTARTTLS: false,
      auth: { user, pass: password },
      logger: false,
    });
    await client.connect();
    const lock = await client.getMailboxLock('INBOX');
    // Dovecot indexes a new Maildir on the first look: done before either read is timed.
    await client.search({ all: true }, { uid: true });
    const bareStart = performance.now();
    let bytes = 0;
    for await (const message of client.fetch('1:*', { uid: true, source: true })) bytes += message.source?.length ?? 0;
    const bare = (performance.now() - bareStart) / 1000;
    // What Dovecot itself takes to move them (Sift moves each bounce it keeps), then back for Sift's read.
    await client.mailboxCreate('Bare').catch(() => undefined);
    const moveStart = performance.now();
    await client.messageMove('1:*', 'Bare');
    const move = (performance.now() - moveStart) / 1000;
    lock.release();
    const back = await client.getMailboxLock('Bare');
    await client.messageMove('1:*', 'INBOX');
    back.release();
    await client.logout();

    const settings: MailboxSettings = {
      name: 'bench',
      host,
      port,
      tls: false,
      user,
      folder: 'INBOX',
      handledFolder: 'Sift-bounces-read',
      connectedAt: 0,
    };
    const store = openOutcomeStore(dataDir);
    try {
      const heapBefore = process.memoryUsage().rss;
      let peak = heapBefore;
      const sample = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 100);
      const siftStart = performance.now();
      const read = await readMailbox(dataDir, store, store.ensureSource('bench', 'imap'), settings, password);
      const sift = (performance.now() - siftStart) / 1000;
      clearInterval(sample);
      const ledgerStart = performance.now();
      const ledger = accuracyLedger(dataDir, store);
      const ledgerSeconds = (performance.now() - ledgerStart) / 1000;
      const valid = ledger.byVerdict.find((row) => row.result === 'valid');
      console.log(`  bare imapflow fetch  ${fmt(bare).padStart(7)} s  (${fmt(bytes / 1024 ** 2, 0)} MB)`);
      console.log(
        `  bare MOVE of them    ${fmt(move).padStart(7)} s  (Dovecot's own work; fetch + move ${fmt(bare + move)} s)`,
      );
      console.log(
        `  sift outcomes read   ${fmt(sift).padStart(7)} s  ${fmt(sift / bare, 1)}× the bare fetch, ${fmt(sift / (bare + move), 1)}× fetch + move; ${read.bounces.toLocaleString('en')} bounces kept and moved; RSS +${fmt((peak - heapBefore) / 1024 ** 2, 0)} MB at most`,
      );
      console.log(
        `  ledger               ${fmt(ledgerSeconds).padStart(7)} s  (${valid?.checked.toLocaleString('en')} checked valid, ${valid?.hard.toLocaleString('en')} bounced)`,
      );
    } finally {
      store.close();
    }
  } finally {
    await mailbox.stop();
    await rm(dataDir, { recursive: true, force: true });
  }
}

if (import.meta.main) {
  const messages = Number(process.argv[2] ?? 100_000);
  await runOutcomesBench({ messages, checked: Math.max(messages, Number(process.argv[3] ?? 1_000_000)) });
}
