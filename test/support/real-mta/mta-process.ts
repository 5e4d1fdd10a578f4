// What the real mail servers of the real-server suite share: where they are installed, a folder of their
// own for each run, a self-signed certificate, and a child process that is stopped for sure when the
// test ends. Every server is started by the test itself, as root, on a loopback address.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, chown, mkdtemp, readFile } from 'node:fs/promises';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Where install-mail-servers.sh unpacked Exim and OpenSMTPD. */
const mtaRoot = process.env.SIFT_MTA_ROOT ?? '/opt/sift-mta';
export const eximBinary = join(mtaRoot, 'usr/sbin/exim4');
export const openSmtpdBinary = join(mtaRoot, 'usr/sbin/smtpd');

/** What is missing to run the suite here, in words (empty: everything is there). */
export function missingMailServers(): string[] {
  const missing: string[] = [];
  if (process.getuid?.() !== 0) missing.push('root (the servers bind loopback addresses and drop privileges)');
  for (const [what, path] of [
    ['Postfix', '/usr/sbin/postfix'],
    ['postgrey', '/usr/sbin/postgrey'],
    ['Exim', eximBinary],
    ['OpenSMTPD', openSmtpdBinary],
    ['openssl', '/usr/bin/openssl'],
    ['rbldnsd', '/usr/sbin/rbldnsd'],
  ] as const) {
    if (!existsSync(path)) missing.push(`${what} (${path})`);
  }
  return missing;
}

export async function serverFolder(name: string): Promise<string> {
  const folder = await mkdtemp(join(tmpdir(), `sift-mta-${name}-`));
  await chmod(folder, 0o755);
  return folder;
}

function uidOf(user: string): number {
  const found = spawnSync('id', ['-u', user], { encoding: 'utf8' });
  if (found.status !== 0) throw new Error(`No system user ${user}: run test/real-mta/install-mail-servers.sh`);
  return Number(found.stdout.trim());
}

export async function ownBy(path: string, user: string): Promise<void> {
  await chown(path, uidOf(user), -1);
}

/** A self-signed certificate and key for `name`, as a small site's mail server has. */
export function selfSignedCertificate(folder: string, name: string): { cert: string; key: string } {
  const cert = join(folder, 'cert.pem');
  const key = join(folder, 'key.pem');
  const made = spawnSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-days',
      '2',
      '-subj',
      `/CN=${name}`,
      '-keyout',
      key,
      '-out',
      cert,
    ],
    { encoding: 'utf8' },
  );
  if (made.status !== 0) throw new Error(`openssl could not make a certificate: ${made.stderr}`);
  return { cert, key };
}

export type RunningServer = {
  name: string;
  ip: string;
  /** The server's own log, as its admin reads it. */
  log(): Promise<string>;
  stop(): Promise<void>;
};

/** Starts a server in the foreground; `stop` ends it (and its children) for sure. */
export function foreground(command: string, args: string[], output: { text: string }): ChildProcess {
  const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  child.stdout!.on('data', (chunk: Buffer) => (output.text += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output.text += chunk.toString()));
  return child;
}

export async function stopGroup(child: ChildProcess, signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const kill = (sig: NodeJS.Signals) => {
    try {
      process.kill(-child.pid!, sig);
    } catch {
      // Already gone.
    }
  };
  kill(signal);
  const timer = setTimeout(() => kill('SIGKILL'), 5000);
  await exited;
  clearTimeout(timer);
}

/** Resolves once something answers SMTP at ip:port, or fails with what the server printed. */
export async function untilListening(ip: string, port: number, what: string, printed: () => string): Promise<void> {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const greeted = await new Promise<boolean>((resolve) => {
      const socket = connect({ host: ip, port });
      socket.once('data', () => (socket.end('QUIT\r\n'), resolve(true)));
      socket.once('error', () => resolve(false));
      socket.setTimeout(2000, () => (socket.destroy(), resolve(false)));
    });
    if (greeted) return;
    if (Date.now() > deadline) throw new Error(`${what} did not start on ${ip}:${port}:\n${printed()}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

export const readLog = (path: string) => readFile(path, 'utf8').catch(() => '');
