// A real bounce mailbox, as a small sender runs one: Postfix (Debian's) takes a campaign from its own
// `sendmail`, delivers what it can to virtual Maildirs and writes its own bounce messages (RFC 3464 DSNs)
// back to the envelope sender's mailbox; Dovecot (Debian's dovecot-imapd) serves that mailbox over IMAP on
// a loopback address. Both run from a folder of their own, as root, and are stopped for sure
// (../shared/notes/real-servers.md). Nothing listens for SMTP: mail goes in through sendmail only.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, chown, copyFile, mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { foreground, ownBy, readLog, selfSignedCertificate, serverFolder, stopGroup } from './mta-process.ts';
import { connect } from 'node:net';

/** What is missing to run a bounce mailbox here (empty: everything is there). */
export function missingBounceMailbox(): string[] {
  const missing: string[] = [];
  if (process.getuid?.() !== 0) missing.push('root (Postfix and Dovecot drop privileges)');
  for (const [what, path] of [
    ['Postfix', '/usr/sbin/postfix'],
    ['Dovecot', '/usr/sbin/dovecot'],
  ] as const)
    if (!existsSync(path)) missing.push(`${what} (${path})`);
  return missing;
}

export type BounceMailbox = {
  imap: { host: string; port: number; user: string; password: string; tlsPort?: number };
  /** Sends one message through Postfix's sendmail, from `from` (the envelope sender) to `to`. */
  send(from: string, to: readonly string[], message: string): void;
  /** Waits until Postfix's queue is empty (every delivery and every bounce written). */
  settled(): Promise<void>;
  /** Delivers a message straight into the bounce mailbox (an auto-reply, a person's reply). */
  deliver(message: string): void;
  /** Puts a file in the bounce mailbox's Maildir as a new message: one larger than Postfix would take. */
  drop(message: Buffer): Promise<void>;
  /** The bounce mailbox's Maildir, made when there is none yet: messages written to its `new` are delivered. */
  maildir(): Promise<string>;
  log(): Promise<string>;
  stop(): Promise<void>;
};

/** The mail system's own user for the Maildirs (Debian's `mail`, uid 8). */
const mailUser = { uid: 8, gid: 8 };

export async function startBounceMailbox(options: {
  ip: string;
  port: number;
  /** IMAP over TLS too, on this port, with a self-signed certificate (as a small server's may be). */
  tlsPort?: number;
  /** Domain → its mailboxes' local parts; the bounce mailbox is bounces@ the first domain. */
  domains: Record<string, string[]>;
}): Promise<BounceMailbox> {
  const folder = await serverFolder('bounce-mailbox');
  const etc = join(folder, 'postfix');
  const maildirs = join(folder, 'mail');
  for (const path of [join(folder, 'queue'), join(folder, 'data'), etc, maildirs, join(folder, 'dovecot')])
    await mkdir(path, { recursive: true });
  await ownBy(join(folder, 'data'), 'postfix');
  await chmod(maildirs, 0o755);
  await chown(maildirs, mailUser.uid, mailUser.gid);
  const [home] = Object.keys(options.domains);
  const user = `bounces@${home}`;
  const password = 'bounce-secret';
  const boxes = Object.entries(options.domains).flatMap(([domain, locals]) =>
    [...locals, ...(domain === home ? ['bounces'] : [])].map((local) => `${local}@${domain} ${domain}/${local}/`),
  );
  await writeFile(join(folder, 'mailboxes'), `${boxes.join('\n')}\n`);
  const main = [
    'compatibility_level = 3.6',
    `queue_directory = ${join(folder, 'queue')}`,
    `data_directory = ${join(folder, 'data')}`,
    'mail_owner = postfix',
    `myhostname = mail.${home}`,
    'mydestination =',
    'alias_maps =',
    'alias_database =',
    'inet_interfaces = loopback-only',
    'inet_protocols = ipv4',
    `maillog_file_prefixes = ${folder}`,
    `maillog_file = ${join(folder, 'maillog')}`,
    `virtual_mailbox_domains = ${Object.keys(options.domains).join(' ')}`,
    `virtual_mailbox_maps = texthash:${join(folder, 'mailboxes')}`,
    `virtual_mailbox_base = ${maildirs}`,
    `virtual_uid_maps = static:${mailUser.uid}`,
    `virtual_gid_maps = static:${mailUser.gid}`,
    'virtual_minimum_uid = 1',
    // VERP return paths (bounces+ann=dest.test@send.test) land in the bounce mailbox.
    'recipient_delimiter = +',
    // A bounce as soon as the recipient is refused: no delay notices, no retries to wait for.
    'bounce_queue_lifetime = 0',
    'maximal_queue_lifetime = 0',
  ];
  await writeFile(join(etc, 'main.cf'), `${main.join('\n')}\n`);
  await copyFile('/etc/postfix/master.cf', join(etc, 'master.cf'));
  const postconf = (...args: string[]) => spawnSync('postconf', ['-c', etc, ...args], { encoding: 'utf8' });
  postconf('-F', '*/*/chroot = n');
  postconf('-MX', 'smtp/inet');
  const output = { text: '' };
  const master = foreground('/usr/sbin/postfix', ['-c', etc, 'start-fg'], output);

  const dovecotDir = join(folder, 'dovecot');
  const tls = options.tlsPort ? selfSignedCertificate(dovecotDir, `mail.${home}`) : undefined;
  await writeFile(join(dovecotDir, 'users'), `${user}:{PLAIN}${password}\n`);
  await chmod(join(dovecotDir, 'users'), 0o644);
  const dovecotConf = join(dovecotDir, 'dovecot.conf');
  await writeFile(
    dovecotConf,
    `protocols = imap
listen = ${options.ip}
base_dir = ${join(dovecotDir, 'run')}
state_dir = ${join(dovecotDir, 'state')}
log_path = ${join(dovecotDir, 'dovecot.log')}
${
  tls
    ? `ssl = yes
ssl_cert = <${tls.cert}
ssl_key = <${tls.key}`
    : 'ssl = no'
}
disable_plaintext_auth = no
auth_mechanisms = plain login
first_valid_uid = 1
mail_location = maildir:${maildirs}/%d/%n
passdb {
  driver = passwd-file
  args = scheme=PLAIN username_format=%u ${join(dovecotDir, 'users')}
}
userdb {
  driver = static
  args = uid=${mailUser.uid} gid=${mailUser.gid} home=${maildirs}/%d/%n
}
service imap-login {
  inet_listener imap {
    address = ${options.ip}
    port = ${options.port}
  }
  inet_listener imaps {
    ${tls ? `address = ${options.ip}\n    port = ${options.tlsPort}\n    ssl = yes` : 'port = 0'}
  }
}
service stats {
  unix_listener stats-writer {
    mode = 0666
  }
}
`,
  );
  const dovecotOutput = { text: '' };
  const dovecot = foreground('/usr/sbin/dovecot', ['-F', '-c', dovecotConf], dovecotOutput);
  await untilGreeted(options.ip, options.port, () => `${dovecotOutput.text}\n${output.text}`);

  const sendmail = (args: string[], message: string) => {
    const sent = spawnSync('/usr/sbin/sendmail', ['-C', etc, ...args], { input: message, encoding: 'utf8' });
    if (sent.status !== 0) throw new Error(`sendmail refused the message: ${sent.stderr}`);
  };
  const maildir = async () => {
    const box = join(maildirs, home!, 'bounces');
    for (const part of ['', 'tmp', 'new', 'cur']) {
      await mkdir(join(box, part), { recursive: true });
      await chown(join(box, part), mailUser.uid, mailUser.gid);
    }
    return box;
  };
  return {
    maildir,
    imap: { host: options.ip, port: options.port, user, password, ...(tls ? { tlsPort: options.tlsPort! } : {}) },
    send: (from, to, message) => sendmail(['-f', from, '--', ...to], message),
    deliver: (message) => sendmail(['-f', `someone@${home}`, '--', user], message),
    async drop(message) {
      const box = await maildir();
      const name = join(box, 'new', `${Date.now()}.sift-test.${home}`);
      await writeFile(name, message);
      await chown(name, mailUser.uid, mailUser.gid);
    },
    async settled() {
      const deadline = Date.now() + 60_000;
      for (;;) {
        const queue = spawnSync('/usr/sbin/postqueue', ['-c', etc, '-j'], { encoding: 'utf8' });
        const log = await readLog(join(folder, 'maillog'));
        if (queue.stdout.trim() === '' && !/ postdrop| pickup/.test(queue.stderr) && log.includes('removed')) return;
        if (Date.now() > deadline) throw new Error(`Postfix's queue did not empty:\n${queue.stdout}\n${log}`);
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
    },
    log: () => readLog(join(folder, 'maillog')),
    async stop() {
      spawnSync('/usr/sbin/postfix', ['-c', etc, 'stop']);
      await stopGroup(master);
      await stopGroup(dovecot);
      await rm(folder, { recursive: true, force: true });
    },
  };
}

/** Resolves once the IMAP server greets at ip:port, or fails with what the servers printed. */
async function untilGreeted(ip: string, port: number, printed: () => string): Promise<void> {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const greeted = await new Promise<boolean>((resolve) => {
      const socket = connect({ host: ip, port });
      socket.once('data', (data) => (socket.end('a LOGOUT\r\n'), resolve(data.toString().startsWith('* OK'))));
      socket.once('error', () => resolve(false));
      socket.setTimeout(2000, () => (socket.destroy(), resolve(false)));
    });
    if (greeted) return;
    if (Date.now() > deadline) throw new Error(`Dovecot did not start on ${ip}:${port}:\n${printed()}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}
