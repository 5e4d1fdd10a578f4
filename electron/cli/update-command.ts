// `sift update`: the single file asks its feed for a newer release, checks it (signed SHA256SUMS, the
// archive's hash, the new file's own --version) and puts it in its own place, the old one kept beside it.
import { parseArgs } from 'node:util';
import { appVersion, updatableFile } from '../core/own-files.ts';
import { newerRelease, updateFeed, UpdateError, UpdateLimitError } from '../core/updates/update-feed.ts';
import { installRelease, previousOf, rollBack } from '../core/updates/self-replace.ts';
import { CliExit, exitCodes, type CliIo } from './cli-io.ts';

export const updateUsage = `Usage: sift update [--check | --rollback]
Asks SIFT_UPDATE_URL (the project's release address unless set; off turns updates off) for a newer Sift,
checks its files against SHA256SUMS and SHA256SUMS's Ed25519 signature with the key built into this file,
and puts the new file in this one's place, keeping this one as sift.previous. Nothing is downloaded by
--check, and nothing is ever installed without this command.`;

export async function runUpdate(argv: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: { check: { type: 'boolean', default: false }, rollback: { type: 'boolean', default: false } },
  });
  if (positionals.length > 0 || (values.check && values.rollback)) throw new CliExit(exitCodes.usage, updateUsage);
  const file = updatableFile(io.env);
  try {
    if (values.rollback) {
      if (!file.path) throw new UpdateError(fromSource);
      rollBack(file.path);
      io.out(`Put back the Sift this one replaced; the one it was is now ${previousOf(file.path)}.\n`);
      return 0;
    }
    const feed = updateFeed(io.env);
    if (!feed) {
      io.out('Updates are off (SIFT_UPDATE_URL=off).\n');
      return 0;
    }
    const current = appVersion();
    const release = await newerRelease(feed, current, file.publicKey);
    if (!release) {
      io.out(`Sift ${current} is the newest.\n`);
      return 0;
    }
    const changes = release.changes ? `\nWhat changed:\n${release.changes}\n` : '';
    if (values.check) {
      io.out(`Sift ${release.version} is ready (this is ${current}).${changes}\nRun sift update to install it.\n`);
      return 0;
    }
    if (!file.path) throw new UpdateError(fromSource);
    io.err(`Downloading Sift ${release.version} (${release.archive.name})…\n`);
    await installRelease(release, file.path);
    io.out(
      `Updated to Sift ${release.version} (it was ${current}; that one is kept as ${previousOf(file.path)}, ` +
        `and sift update --rollback puts it back).${changes}`,
    );
    return 0;
  } catch (error) {
    if (error instanceof UpdateLimitError) throw new CliExit(exitCodes.usage, error.message);
    if (error instanceof UpdateError) throw new CliExit(exitCodes.service, error.message);
    throw error;
  }
}

const fromSource = 'This Sift runs from its source, not the single file: update it with git pull and npm install.';
