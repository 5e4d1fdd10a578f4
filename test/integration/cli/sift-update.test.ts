// `sift update` end to end against a feed on loopback serving a release as `npm run dist` writes one
// (archive, SHA256SUMS, its Ed25519 signature, CHANGES.txt): the update applied and the new --version
// shown, the old file kept and put back by --rollback; a tampered archive, a signature by another key and
// no signature each refused with the file unchanged. From the source, the file to replace and the key to
// trust are named by SIFT_UPDATE_EXECUTABLE and SIFT_UPDATE_PUBLIC_KEY (the single file uses its own).
import { chmodSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeArchive, writeChecksums } from '../../../packaging/archives.ts';
import { targetById, type Target } from '../../../packaging/targets.ts';
import { publicKeyText, signSums } from '../../../electron/core/updates/release-files.ts';
import { runSift } from '../../support/run-sift.ts';

const keys = new URL('../../fixtures/update-signing/', import.meta.url).pathname;
const trusted = readFileSync(join(keys, 'test-key.pem'), 'utf8');
const other = readFileSync(join(keys, 'other-key.pem'), 'utf8');
const target = targetById(`${process.platform === 'win32' ? 'win' : process.platform}-${process.arch}` as Target['id']);

/** A stand-in for the single file: a script answering --version as Sift does. */
const fakeSift = (version: string) => `#!/bin/sh\necho "sift ${version} (test)"\n`;

/** What the feed serves, by file name; a test changes it to tamper. */
let served = new Map<string, Buffer>();
let server: Server;
let feed: string;

async function release(version: string, signWith: string | null) {
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

beforeAll(async () => {
  server = createServer((request, response) => {
    const body = served.get(decodeURIComponent(new URL(request.url ?? '/', 'http://x').pathname.slice(1)));
    if (!body) response.writeHead(404).end();
    else response.writeHead(200).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  feed = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
});
afterAll(() => new Promise((resolve) => server.close(resolve)));

/** An installed "single file" of version 0.1.0 (this checkout's version) in a folder of its own. */
function installed() {
  const dir = mkdtempSync(join(tmpdir(), 'sift-installed-'));
  const exe = join(dir, 'sift');
  writeFileSync(exe, fakeSift('0.1.0'));
  chmodSync(exe, 0o755);
  const env = { SIFT_UPDATE_URL: feed, SIFT_UPDATE_EXECUTABLE: exe, SIFT_UPDATE_PUBLIC_KEY: publicKeyText(trusted) };
  const version = (path = exe) => execFileSync(path, ['--version'], { encoding: 'utf8' }).trim();
  return { dir, exe, env, version };
}

describe.skipIf(process.platform === 'win32')('sift update', () => {
  it('says a newer release is ready, and what changed, without downloading it', async () => {
    served = await release('0.2.0', trusted);
    const { dir, env, version } = installed();
    const check = await runSift(['update', '--check'], env);
    expect(check.code, check.stderr).toBe(0);
    expect(check.stdout).toContain('Sift 0.2.0 is ready (this is 0.1.0).');
    expect(check.stdout).toContain('- Faster at a million rows.');
    expect(version()).toBe('sift 0.1.0 (test)');
    expect(readdirSync(dir)).toEqual(['sift']);
  });

  it('puts the new file in place, keeps the old one, and --rollback puts it back', async () => {
    served = await release('0.2.0', trusted);
    const { dir, env, version } = installed();
    const update = await runSift(['update'], env);
    expect(update.code, update.stderr).toBe(0);
    expect(update.stdout).toContain(
      `Updated to Sift 0.2.0 (it was 0.1.0; that one is kept as ${join(dir, 'sift.previous')}`,
    );
    expect(version()).toBe('sift 0.2.0 (test)');
    expect(version(join(dir, 'sift.previous'))).toBe('sift 0.1.0 (test)');
    expect(readdirSync(dir).sort()).toEqual(['sift', 'sift.previous']);

    const back = await runSift(['update', '--rollback'], env);
    expect(back.code, back.stderr).toBe(0);
    expect(version()).toBe('sift 0.1.0 (test)');
    expect(version(join(dir, 'sift.previous'))).toBe('sift 0.2.0 (test)');
  });

  it.each([
    ['a tampered archive', 'does not match its SHA-256 in the signed SHA256SUMS'],
    ['a signature by another key', "is not signed by Sift's key"],
    ['no signature', 'is not signed (no SHA256SUMS.sig)'],
  ])('refuses %s with the file unchanged', async (fault, words) => {
    served = await release(
      '0.2.0',
      fault === 'no signature' ? null : fault === 'a signature by another key' ? other : trusted,
    );
    if (fault === 'a tampered archive') {
      const name = [...served.keys()].find((file) => file.startsWith('sift-0.2.0'))!;
      const bytes = Buffer.from(served.get(name)!);
      bytes[bytes.length - 10]! ^= 0xff;
      served.set(name, bytes);
    }
    const { dir, exe, env, version } = installed();
    const before = readFileSync(exe);
    const refused = await runSift(['update'], env);
    expect(refused.code).toBe(5);
    expect(refused.stderr).toContain(words);
    expect(readFileSync(exe)).toEqual(before);
    expect(version()).toBe('sift 0.1.0 (test)');
    expect(readdirSync(dir)).toEqual(['sift']);
  });

  it('says when this is the newest, when updates are off, and refuses a feed over plain http elsewhere', async () => {
    served = await release('0.1.0', trusted);
    const { env } = installed();
    expect((await runSift(['update', '--check'], env)).stdout).toContain('Sift 0.1.0 is the newest.');
    expect((await runSift(['update'], { ...env, SIFT_UPDATE_URL: 'off' })).stdout).toContain('Updates are off');
    const plain = await runSift(['update', '--check'], { ...env, SIFT_UPDATE_URL: 'http://updates.example.com/' });
    expect(plain.code).toBe(5);
    expect(plain.stderr).toContain('SIFT_UPDATE_URL must be https');
  });
});
