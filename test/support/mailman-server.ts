// A real Mailman 3 (Debian's mailman3 package: GNU Mailman 3.3.8, its REST API on SQLite) on a loopback
// port, with a private configuration and data folder of its own, started and stopped by the test
// (../shared/notes/real-servers.md's recipe). `.ci/run` installs the package; without it the tier skips
// unless SIFT_LIST_SERVERS=required, as CI sets, which fails instead.
import { execFile, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { freePort } from './free-port.ts';

const run = promisify(execFile);

/** Whether Debian's mailman3 is installed here. */
export const mailmanInstalled = existsSync('/usr/bin/mailman') && existsSync('/usr/lib/mailman3/bin');

/** Mailman's JSON, as the tests read it: lists of entries, or one resource's fields. */
type MailmanAnswer = { entries?: Record<string, string>[]; [field: string]: unknown };

export type MailmanServer = {
  /** The REST address without its version (`http://127.0.0.1:PORT`), as a person gives it to `sift connect`. */
  url: string;
  user: string;
  password: string;
  /** A REST call as the list admin makes it: form-encoded body, JSON answer. */
  rest(method: string, path: string, form?: Record<string, string>): Promise<{ status: number; body: MailmanAnswer }>;
  stop(): Promise<void>;
};

export async function startMailman(): Promise<MailmanServer> {
  const dir = await mkdtemp(join(tmpdir(), 'sift-mailman-'));
  const [port, lmtpPort] = [await freePort(), await freePort()];
  const user = 'restadmin';
  const password = `pw-${Math.random().toString(36).slice(2)}`;
  const config = join(dir, 'mailman.cfg');
  await writeFile(
    config,
    [
      '[mailman]',
      'layout: test',
      'site_owner: owner@lists.test',
      '[paths.test]',
      `var_dir: ${dir}/var`,
      // Without it the master runner is looked for in /usr/bin, and start fails.
      'bin_dir: /usr/lib/mailman3/bin',
      `pid_file: ${dir}/var/master.pid`,
      `lock_file: ${dir}/var/master.lck`,
      '[database]',
      'class: mailman.database.sqlite.SQLiteDatabase',
      `url: sqlite:///${dir}/var/mailman.db`,
      '[webservice]',
      'hostname: 127.0.0.1',
      `port: ${port}`,
      `admin_user: ${user}`,
      `admin_pass: ${password}`,
      '[mta]',
      'incoming: mailman.mta.null.NullMTA',
      `lmtp_port: ${lmtpPort}`,
      '',
    ].join('\n'),
  );
  const asRoot = process.getuid?.() === 0 ? ['--run-as-root'] : [];
  // Detached, its output to nothing: its runners keep a terminal's output open otherwise.
  spawn('mailman', ['-C', config, ...asRoot, 'start'], { detached: true, stdio: 'ignore' }).unref();
  const url = `http://127.0.0.1:${port}`;
  const authorization = `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;
  const rest: MailmanServer['rest'] = async (method, path, form) => {
    const response = await fetch(`${url}/3.1${path}`, {
      method,
      headers: {
        Authorization: authorization,
        ...(form ? { 'Content-Type': 'application/x-www-form-urlencoded' } : {}),
      },
      ...(form ? { body: new URLSearchParams(form).toString() } : {}),
    });
    const text = await response.text();
    return { status: response.status, body: (text ? JSON.parse(text) : {}) as MailmanAnswer };
  };
  const stop = async () => {
    await run('mailman', ['-C', config, ...asRoot, 'stop']).catch(() => undefined);
    // The master waits for its runners; its pid file goes when it has.
    for (let i = 0; i < 100 && existsSync(join(dir, 'var', 'master.pid')); i += 1)
      await new Promise((resolve) => setTimeout(resolve, 100));
    await rm(dir, { recursive: true, force: true });
  };
  // 5-15 s here: bounded at 60 s.
  for (const started = Date.now(); ;) {
    const answered = await rest('GET', '/system/versions').catch(() => undefined);
    if (answered?.status === 200) break;
    if (Date.now() - started > 60_000) {
      await stop();
      throw new Error('Mailman did not answer on its REST port within 60 s.');
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return { url, user, password, rest, stop };
}
