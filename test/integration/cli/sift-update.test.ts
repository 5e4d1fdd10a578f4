// `sift update` end to end against a feed on loopback serving a release as `npm run dist` writes one
// (archive, SHA256SUMS, its Ed25519 signature, CHANGES.txt): the update applied and the new --version
// shown, the old file kept and put back by --rollback; a tampered archive, a signature by another key and
// no signature each refused with the file unchanged. From the source, the file to replace and the key to
// trust are named by SIFT_UPDATE_EXECUTABLE and SIFT_UPDATE_PUBLIC_KEY (the single file uses its own).
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { publicKeyText } from '../../../electron/core/updates/release-files.ts';
import {
  currentVersion as current,
  installedFake,
  nextVersion as next,
  otherKey,
  releaseFiles,
  startReleaseFeed,
  trustedKey,
} from '../../support/release-feed.ts';
import { runSift } from '../../support/run-sift.ts';

let feed: Awaited<ReturnType<typeof startReleaseFeed>>;
beforeAll(async () => {
  feed = await startReleaseFeed(new Map());
});
afterAll(() => feed.close());

/** An installed "single file" of this checkout's version in a folder of its own. */
function installed() {
  const exe = installedFake(current);
  const env = {
    SIFT_UPDATE_URL: feed.url,
    SIFT_UPDATE_EXECUTABLE: exe,
    SIFT_UPDATE_PUBLIC_KEY: publicKeyText(trustedKey),
  };
  const version = (path = exe) => execFileSync(path, ['--version'], { encoding: 'utf8' }).trim();
  return { dir: dirname(exe), exe, env, version };
}

describe.skipIf(process.platform === 'win32')('sift update', () => {
  it('says a newer release is ready, and what changed, without downloading it', async () => {
    feed.files = await releaseFiles(next, trustedKey);
    const { dir, env, version } = installed();
    const check = await runSift(['update', '--check'], env);
    expect(check.code, check.stderr).toBe(0);
    expect(check.stdout).toContain(`Sift ${next} is ready (this is ${current}).`);
    expect(check.stdout).toContain('- Faster at a million rows.');
    expect(version()).toBe(`sift ${current} (test)`);
    expect(readdirSync(dir)).toEqual(['sift']);
  });

  it('puts the new file in place, keeps the old one, and --rollback puts it back', async () => {
    feed.files = await releaseFiles(next, trustedKey);
    const { dir, env, version } = installed();
    const update = await runSift(['update'], env);
    expect(update.code, update.stderr).toBe(0);
    expect(update.stdout).toContain(
      `Updated to Sift ${next} (it was ${current}; that one is kept as ${join(dir, 'sift.previous')}`,
    );
    expect(version()).toBe(`sift ${next} (test)`);
    expect(version(join(dir, 'sift.previous'))).toBe(`sift ${current} (test)`);
    expect(readdirSync(dir).sort()).toEqual(['sift', 'sift.previous']);

    const back = await runSift(['update', '--rollback'], env);
    expect(back.code, back.stderr).toBe(0);
    expect(version()).toBe(`sift ${current} (test)`);
    expect(version(join(dir, 'sift.previous'))).toBe(`sift ${next} (test)`);
  });

  it.each([
    ['a tampered archive', 'does not match its SHA-256 in the signed SHA256SUMS'],
    ['a signature by another key', "is not signed by Sift's key"],
    ['no signature', 'is not signed (no SHA256SUMS.sig)'],
  ])('refuses %s with the file unchanged', async (fault, words) => {
    feed.files = await releaseFiles(
      next,
      fault === 'no signature' ? null : fault === 'a signature by another key' ? otherKey : trustedKey,
    );
    if (fault === 'a tampered archive') {
      const name = [...feed.files.keys()].find((file) => file.startsWith(`sift-${next}`))!;
      const bytes = Buffer.from(feed.files.get(name)!);
      bytes[bytes.length - 10]! ^= 0xff;
      feed.files.set(name, bytes);
    }
    const { dir, exe, env, version } = installed();
    const before = readFileSync(exe);
    const refused = await runSift(['update'], env);
    expect(refused.code).toBe(5);
    expect(refused.stderr).toContain(words);
    expect(readFileSync(exe)).toEqual(before);
    expect(version()).toBe(`sift ${current} (test)`);
    expect(readdirSync(dir)).toEqual(['sift']);
  });

  it('says when this is the newest, when updates are off, and refuses a feed over plain http elsewhere', async () => {
    feed.files = await releaseFiles(current, trustedKey);
    const { env } = installed();
    expect((await runSift(['update', '--check'], env)).stdout).toContain(`Sift ${current} is the newest.`);
    expect((await runSift(['update'], { ...env, SIFT_UPDATE_URL: 'off' })).stdout).toContain('Updates are off');
    const plain = await runSift(['update', '--check'], { ...env, SIFT_UPDATE_URL: 'http://updates.example.com/' });
    expect(plain.code).toBe(5);
    expect(plain.stderr).toContain('SIFT_UPDATE_URL must be https');
  });
});
