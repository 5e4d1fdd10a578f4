// Putting a verified release in place of the running file: the archive downloaded beside it and checked
// against SHA256SUMS, its executable taken out and asked its version, then swapped in with renames only,
// the old file kept as `<name>.previous` (so `sift update --rollback` can put it back). On Linux and macOS
// the new file is renamed over the old one, which is atomic; Windows cannot replace a running .exe, but
// can rename it, so the old file is renamed away first and the new one takes its name, as installers do.
import { execFileSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import {
  chmodSync,
  copyFileSync,
  createReadStream,
  createWriteStream,
  existsSync,
  linkSync,
  renameSync,
  rmSync,
  statSync,
} from 'node:fs';
import { open } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { basename, dirname, extname, join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { createGunzip } from 'node:zlib';
import type TarStream from 'tar-stream';
import type Unzipper from 'unzipper';
import { lazyPackage } from '../lazy-package.ts';
import { readBounded, UpdateError, type NewerRelease } from './update-feed.ts';

/** The most a release's archive may be (today's is about 51 MB): a feed cannot fill the disk past it. */
const archiveLimit = 256 * 1024 * 1024;

const require = createRequire(import.meta.url);
const tarStream = lazyPackage<typeof TarStream>(() => require('tar-stream'));
const unzipper = lazyPackage<typeof Unzipper>(() => require('unzipper'));

/** `sift` → `sift.previous`, `sift.exe` → `sift.previous.exe`: the file an update replaced. */
export function previousOf(executable: string): string {
  const ending = extname(executable) === '.exe' ? '.exe' : '';
  return join(dirname(executable), `${basename(executable, ending)}.previous${ending}`);
}

/** Downloads the release's archive beside `executable`, checks its hash, and answers its executable, taken out. */
async function fetchVerified(release: NewerRelease, executable: string): Promise<string> {
  const stem = join(dirname(executable), `.sift-update-${randomBytes(6).toString('hex')}`);
  const archive = `${stem}${release.archive.name.endsWith('.zip') ? '.zip' : '.tar.gz'}`;
  const unpacked = `${stem}.new${extname(executable)}`;
  try {
    const response = await fetch(release.archive.url, { redirect: 'error', signal: AbortSignal.timeout(600_000) });
    if (!response.ok || !response.body)
      throw new UpdateError(`The update feed answered HTTP ${response.status} for ${release.archive.name}.`);
    const hash = createHash('sha256');
    const file = await open(archive, 'wx', 0o600);
    try {
      // Written as it arrives and stopped at the ceiling: a feed cannot fill the disk beside the executable.
      await readBounded(response, release.archive.name, archiveLimit, async (chunk) => {
        hash.update(chunk);
        await file.write(chunk);
      });
    } finally {
      await file.close();
    }
    if (hash.digest('hex') !== release.archive.sha256) {
      throw new UpdateError(`${release.archive.name} does not match its SHA-256 in the signed SHA256SUMS: not taken.`);
    }
    await extract(archive, release.archive.executable, unpacked);
    // The new file keeps the old one's mode (a file only its owner may run stays so), and can always be run.
    chmodSync(unpacked, (statSync(executable).mode & 0o7777) | 0o100);
    const said = execFileSync(unpacked, ['--version'], { encoding: 'utf8', timeout: 60_000 }).trim();
    if (!said.startsWith(`sift ${release.version} `) && said !== `sift ${release.version}`) {
      throw new UpdateError(`The new file says "${said}", not Sift ${release.version}: not taken.`);
    }
    return unpacked;
  } catch (error) {
    rmSync(unpacked, { force: true });
    throw error instanceof UpdateError ? error : new UpdateError(`The update could not be fetched (${String(error)}).`);
  } finally {
    rmSync(archive, { force: true });
  }
}

async function extract(archive: string, member: string, target: string): Promise<void> {
  if (archive.endsWith('.zip')) {
    const entry = (await unzipper().Open.file(archive)).files.find((file) => file.path === member);
    if (!entry) throw new UpdateError(`The archive holds no ${member}.`);
    await pipeline(entry.stream(), createWriteStream(target, { mode: 0o700 }));
    return;
  }
  const reader = tarStream().extract();
  let found = false;
  const reading = (async () => {
    for await (const entry of reader) {
      if (entry.header.name === member && entry.header.type === 'file') {
        found = true;
        await pipeline(entry, createWriteStream(target, { mode: 0o700 }));
      } else entry.resume();
    }
  })();
  await Promise.all([pipeline(createReadStream(archive), createGunzip(), reader), reading]);
  if (!found) throw new UpdateError(`The archive holds no ${member}.`);
}

/** Installs `release` in place of `executable`, keeping the old file as its `.previous`. */
export async function installRelease(release: NewerRelease, executable: string): Promise<void> {
  const fresh = await fetchVerified(release, executable);
  const previous = previousOf(executable);
  rmSync(previous, { force: true });
  try {
    swapIn(fresh, executable, previous);
  } catch (error) {
    rmSync(fresh, { force: true });
    throw error;
  }
}

/**
 * Puts `fresh` in `executable`'s place, keeping the old file as `previous`. Windows cannot replace a running
 * .exe, so it is renamed away first; if the new file then cannot take its name, the old one gets it back.
 */
export function swapIn(
  fresh: string,
  executable: string,
  previous: string,
  platform: NodeJS.Platform = process.platform,
  rename: (from: string, to: string) => void = renameSync,
): void {
  if (platform === 'win32') {
    rename(executable, previous);
    try {
      rename(fresh, executable);
    } catch (error) {
      rename(previous, executable);
      throw new UpdateError(
        `The new Sift could not take ${basename(executable)}'s place (${String(error)}): the old one is back.`,
      );
    }
    return;
  }
  keepAs(executable, previous);
  rename(fresh, executable);
}

/** A second name for `file` (a copy where the folder cannot hold a hard link). */
function keepAs(file: string, name: string): void {
  try {
    linkSync(file, name);
  } catch {
    copyFileSync(file, name);
  }
}

/** Puts the file an update replaced back, keeping the one it replaces as the new `.previous` (so it can go back again). */
export function rollBack(executable: string): void {
  const previous = previousOf(executable);
  if (!existsSync(previous))
    throw new UpdateError(`There is no ${basename(previous)} beside ${executable} to go back to.`);
  const aside = `${executable}.rollback-${randomBytes(4).toString('hex')}`;
  if (process.platform === 'win32') renameSync(executable, aside);
  else keepAs(executable, aside);
  // Atomic where it can be: the name never stands empty on Linux and macOS.
  renameSync(previous, executable);
  renameSync(aside, previous);
}
