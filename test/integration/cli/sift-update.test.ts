// `sift update` end to end against a feed on loopback serving a release as `npm run dist` writes one
// (archive, SHA256SUMS, its Ed25519 signature, CHANGES.txt): the update applied and the new --version
// shown, the old file kept and put back by --rollback; a tampered archive, a signature by another key and
// no signature each refused with the file unchanged. From the source, the file to replace and the key to
// trust are named by SIFT_UPDATE_EXECUTABLE and SIFT_UPDATE_PUBLIC_KEY (the single file uses its own).
import { execFileSync } from 'node:child_process';
import { chmodSync, readdirSync, readFileSync, statSync } from 'node:fs';
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
import { runSiftHere } from '../../support/run-sift-here.ts';

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
    const check = await runSiftHere(['update', '--check'], env);
    expect(check.code, check.stderr).toBe(0);
    expect(check.stdout).toContain(`Sift ${next} is ready (this is ${current}).`);
    expect(check.stdout).toContain('- Faster at a million rows.');
    expect(version()).toBe(`sift ${current} (test)`);
    expect(readdirSync(dir)).toEqual(['sift']);
  });

  it('puts the new file in place, keeps the old one, and --rollback puts it back', async () => {
    feed.files = await releaseFiles(next, trustedKey);
    const { dir, env, version } = installed();
    const update = await runSiftHere(['update'], env);
    expect(update.code, update.stderr).toBe(0);
    expect(update.stdout).toContain(
      `Updated to Sift ${next} (it was ${current}; that one is kept as ${join(dir, 'sift.previous')}`,
    );
    expect(version()).toBe(`sift ${next} (test)`);
    expect(version(join(dir, 'sift.previous'))).toBe(`sift ${current} (test)`);
    expect(readdirSync(dir).sort()).toEqual(['sift', 'sift.previous']);

    const back = await runSiftHere(['update', '--rollback'], env);
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
      const bytes = Buffer.from(feed.files.get(name) as Buffer);
      bytes[bytes.length - 10]! ^= 0xff;
      feed.files.set(name, bytes);
    }
    const { dir, exe, env, version } = installed();
    const before = readFileSync(exe);
    const refused = await runSiftHere(['update'], env);
    expect(refused.code).toBe(5);
    expect(refused.stderr).toContain(words);
    expect(readFileSync(exe)).toEqual(before);
    expect(version()).toBe(`sift ${current} (test)`);
    expect(readdirSync(dir)).toEqual(['sift']);
  });

  it('says when this is the newest, when updates are off, and refuses a feed over plain http elsewhere', async () => {
    feed.files = await releaseFiles(current, trustedKey);
    const { env } = installed();
    expect((await runSiftHere(['update', '--check'], env)).stdout).toContain(`Sift ${current} is the newest.`);
    expect((await runSiftHere(['update'], { ...env, SIFT_UPDATE_URL: 'off' })).stdout).toContain('Updates are off');
    const plain = await runSiftHere(['update', '--check'], { ...env, SIFT_UPDATE_URL: 'http://updates.example.com/' });
    expect(plain.code).toBe(5);
    expect(plain.stderr).toContain('SIFT_UPDATE_URL must be https');
  });
});

describe.skipIf(process.platform === 'win32')('sift update against a hostile feed', () => {
  it('stops reading a SHA256SUMS that never ends at its limit, in words, and changes nothing', async () => {
    feed.files = await releaseFiles(next, trustedKey);
    feed.files.set('SHA256SUMS', { endless: { upTo: 2 * 1024 * 1024 * 1024 } });
    const { dir, env, version } = installed();
    const check = await runSiftHere(['update', '--check'], env);
    expect(check.code).toBe(2);
    expect(check.stderr).toContain("The update feed's SHA256SUMS is larger than 1 MiB: not taken.");
    // Read as it came and stopped at the limit: a few hundred KiB past it at most, never the 2 GiB.
    expect(feed.sent.get('SHA256SUMS')!).toBeLessThan(64 * 1024 * 1024);
    expect(version()).toBe(`sift ${current} (test)`);
    expect(readdirSync(dir)).toEqual(['sift']);
  });

  it('says a feed that stalls part way in words, not with a stack trace', async () => {
    feed.files = await releaseFiles(next, trustedKey);
    feed.files.set('SHA256SUMS', { stalls: Buffer.from('0123456789abcdef') });
    const { env } = installed();
    // A process of its own: the feed's time limit is read from its environment.
    const check = await runSift(['update', '--check'], { ...env, SIFT_UPDATE_TIMEOUT_MS: '1500' });
    expect(check.code).toBe(5);
    expect(check.stderr).toBe(
      'sift: The update feed stopped sending SHA256SUMS part way (it stopped answering): nothing was changed.\n',
    );
  });

  it('stops downloading an archive past its ceiling, leaving nothing beside the file', async () => {
    feed.files = await releaseFiles(next, trustedKey);
    const name = [...feed.files.keys()].find((file) => file.startsWith(`sift-${next}`))!;
    feed.files.set(name, { endless: { upTo: 3 * 1024 * 1024 * 1024 } });
    const { dir, exe, env } = installed();
    const before = readFileSync(exe);
    const update = await runSiftHere(['update'], env);
    expect(update.code).toBe(2);
    expect(update.stderr).toContain(`The update feed's ${name} is larger than 256 MiB: not taken.`);
    expect(feed.sent.get(name)!).toBeLessThan(300 * 1024 * 1024);
    expect(readFileSync(exe)).toEqual(before);
    expect(readdirSync(dir)).toEqual(['sift']);
  });

  it("keeps the old file's mode on the new one", async () => {
    feed.files = await releaseFiles(next, trustedKey);
    const { exe, env, version } = installed();
    chmodSync(exe, 0o750);
    const update = await runSiftHere(['update'], env);
    expect(update.code, update.stderr).toBe(0);
    expect(version()).toBe(`sift ${next} (test)`);
    expect(statSync(exe).mode & 0o777).toBe(0o750);
  });
});
