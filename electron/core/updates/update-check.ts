// What the app says about updates: asks the feed at most once a day (the answer kept in the data folder's
// update-check.json), never while a list is being checked, and installs only when the person says so,
// with the same checks as `sift update`.
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { newerRelease, updateFeed, UpdateError, type NewerRelease } from './update-feed.ts';
import { installRelease, previousOf } from './self-replace.ts';

type UpdateStatus =
  | { state: 'off' | 'current' | 'later' | 'failed'; message: string }
  | { state: 'ready'; version: string; changes: string; message: string };

type Kept = { checkedAt: number; release?: { version: string; changes: string }; error?: string };

const day = 24 * 60 * 60 * 1000;

export type UpdateChecks = { status(): Promise<UpdateStatus>; install(): Promise<string> };

export function createUpdateChecks(options: {
  dataDir: string;
  env: NodeJS.ProcessEnv;
  currentVersion: string;
  file: { path?: string; publicKey?: string };
  busy: () => boolean;
  now?: () => number;
}): UpdateChecks {
  const now = options.now ?? Date.now;
  const keptPath = join(options.dataDir, 'update-check.json');
  let fresh: NewerRelease | undefined;
  const read = (): Kept | undefined => {
    try {
      return JSON.parse(readFileSync(keptPath, 'utf8')) as Kept;
    } catch {
      return undefined;
    }
  };
  const keep = (kept: Kept) => {
    writeFileSync(`${keptPath}.partial`, JSON.stringify(kept));
    renameSync(`${keptPath}.partial`, keptPath);
  };
  const feed = () => {
    try {
      return updateFeed(options.env);
    } catch {
      return null;
    }
  };

  return {
    async status() {
      const from = feed();
      if (!from) return { state: 'off', message: 'Updates are off (SIFT_UPDATE_URL=off, or not an https address).' };
      let kept = read();
      if (!kept || now() - kept.checkedAt >= day) {
        if (options.busy())
          return { state: 'later', message: 'Sift looks for a new version when no list is being checked.' };
        try {
          fresh = await newerRelease(from, options.currentVersion, options.file.publicKey);
          kept = {
            checkedAt: now(),
            ...(fresh ? { release: { version: fresh.version, changes: fresh.changes } } : {}),
          };
        } catch (error) {
          kept = { checkedAt: now(), error: error instanceof Error ? error.message : String(error) };
        }
        keep(kept);
      }
      if (kept.error) return { state: 'failed', message: kept.error };
      const release = kept.release;
      if (!release || release.version === options.currentVersion) {
        return { state: 'current', message: `Sift ${options.currentVersion} is the newest.` };
      }
      return {
        state: 'ready',
        version: release.version,
        changes: release.changes,
        message: `Sift ${release.version} is ready (this is ${options.currentVersion}).`,
      };
    },

    async install() {
      if (options.busy()) throw new UpdateError('A list is being checked: install the new version when it is done.');
      const path = options.file.path;
      if (!path) throw new UpdateError('This Sift runs from its source: update it with git pull and npm install.');
      const from = feed();
      if (!from) throw new UpdateError('Updates are off.');
      // Asked again now: what is installed is what verifies at this moment, not what was seen a day ago.
      fresh = await newerRelease(from, options.currentVersion, options.file.publicKey);
      if (!fresh) throw new UpdateError(`Sift ${options.currentVersion} is the newest.`);
      await installRelease(fresh, path);
      return `Sift ${fresh.version} is installed; the one before is kept as ${previousOf(path)}. Quit Sift and start it again to use it.`;
    },
  };
}
