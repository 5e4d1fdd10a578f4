// A release feed on loopback, as `npm run dist` would publish one: this computer's archive holding a
// stand-in `sift` (a script answering --version), CHANGES.txt, SHA256SUMS and its Ed25519 signature by a
// key given (or none). `files` is what the feed serves, by name; a test changes it to tamper.
import { chmodSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeArchive, writeChecksums } from '../../packaging/archives.ts';
import { targetById, type Target } from '../../packaging/targets.ts';
import { signSums } from '../../electron/core/updates/release-files.ts';

const keys = new URL('../fixtures/update-signing/', import.meta.url).pathname;
export const trustedKey = readFileSync(join(keys, 'test-key.pem'), 'utf8');
export const otherKey = readFileSync(join(keys, 'other-key.pem'), 'utf8');

/** This checkout's version, and the next one, which a test's feed serves as the newer release. */
export const currentVersion = (
  JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }
).version;
export const nextVersion = currentVersion.replace(
  /^(\d+)\.(\d+)\..*$/,
  (_all, major: string, minor: string) => `${major}.${Number(minor) + 1}.0`,
);

/** A stand-in for the single file: a script answering --version as Sift does. */
const fakeSift = (version: string) => `#!/bin/sh\necho "sift ${version} (test)"\n`;

/** An installed stand-in of `version` in a folder of its own. */
export function installedFake(version: string): string {
  const exe = join(mkdtempSync(join(tmpdir(), 'sift-installed-')), 'sift');
  writeFileSync(exe, fakeSift(version));
  chmodSync(exe, 0o755);
  return exe;
}

/** A release's files: the archive for this computer, CHANGES.txt, SHA256SUMS and (with a key) its signature. */
export async function releaseFiles(version: string, signWith: string | null): Promise<Map<string, Buffer>> {
  const target = targetById(
    `${process.platform === 'win32' ? 'win' : process.platform}-${process.arch}` as Target['id'],
  );
  const dir = mkdtempSync(join(tmpdir(), 'sift-release-'));
  const exe = join(dir, 'sift');
  writeFileSync(exe, fakeSift(version));
  chmodSync(exe, 0o755);
  const archive = await writeArchive(
    target,
    `sift-${version}-${target.id}`,
    [{ name: 'sift', path: exe, executable: true }],
    dir,
  );
  writeFileSync(join(dir, 'CHANGES.txt'), `## ${version}\n- Faster at a million rows.\n`);
  const sums = await writeChecksums(dir, [archive, join(dir, 'CHANGES.txt')]);
  const files = new Map<string, Buffer>();
  for (const name of readdirSync(dir).filter((name) => name !== 'sift')) files.set(name, readFileSync(join(dir, name)));
  if (signWith) files.set('SHA256SUMS.sig', Buffer.from(`${signSums(readFileSync(sums), signWith)}\n`));
  return files;
}

/** A hostile answer: bytes without end (a bomb, bounded here at `upTo`), or a part of a body and then nothing. */
export type HostileBody = { endless: { upTo: number } } | { stalls: Buffer };

/** Serves `files` on 127.0.0.1, counting the requests for each name. */
export async function startReleaseFeed(files: Map<string, Buffer | HostileBody>) {
  const asked = new Map<string, number>();
  const sent = new Map<string, number>();
  const feed = {
    files,
    asked,
    /** Bytes written for each name: what a hostile answer managed to send before Sift hung up. */
    sent,
    url: '',
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  const server = createServer((request, response) => {
    const name = decodeURIComponent(new URL(request.url ?? '/', 'http://x').pathname.slice(1));
    asked.set(name, (asked.get(name) ?? 0) + 1);
    const body = feed.files.get(name);
    if (!body) return void response.writeHead(404).end();
    if (Buffer.isBuffer(body)) return void response.writeHead(200).end(body);
    response.writeHead(200);
    if ('stalls' in body) {
      // Half a body, then silence until the client gives up (or 60 s, whichever comes first).
      response.write(body.stalls);
      setTimeout(() => response.destroy(), 60_000).unref();
      return;
    }
    // Bytes as fast as the client takes them, until it hangs up or `upTo` is reached.
    const chunk = Buffer.alloc(256 * 1024, 0x61);
    let written = 0;
    const pump = () => {
      while (written < body.endless.upTo && !response.destroyed) {
        written += chunk.length;
        sent.set(name, written);
        if (!response.write(chunk)) return void response.once('drain', pump);
      }
      response.end();
    };
    response.on('close', () => sent.set(name, written));
    pump();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  feed.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  return feed;
}
