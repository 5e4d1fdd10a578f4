// What each store on disk was written with, and what this Sift does about it before opening any: a store
// of a newer schema is refused untouched (read from the file's header, so not a byte is written), and one
// of an older schema is copied beside itself (`<file>.before-<version>`, the last copy kept) before its
// migration, so a migration that fails can put the file back as it was. The data folder's marker
// (`sift-data.json`) says which Sift last opened it, so a refusal can name the version that made the data.
import {
  closeSync,
  copyFileSync,
  existsSync,
  openSync,
  readdirSync,
  readFileSync,
  readSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { makePrivateFolder } from './private-folder.ts';

/** A store file and the schema version this Sift writes (SQLite's user_version). */
export type StoreFile = { path: string; known: number };

const markerName = 'sift-data.json';

/**
 * SQLite's user_version as the store holds it; undefined when there is no SQLite file there. Read from the
 * file's header, which opens nothing and writes nothing; but a run that ended without closing its stores
 * (a crash, a kill) may have left the last commits (a migration's new version among them) in the
 * write-ahead log, and then a read-only connection reads them.
 */
export function userVersionOnDisk(path: string): number | undefined {
  const header = headerVersion(path);
  if (header === undefined || (statSync(`${path}-wal`, { throwIfNoEntry: false })?.size ?? 0) === 0) return header;
  const db = new DatabaseSync(path, { readOnly: true });
  try {
    db.exec('PRAGMA busy_timeout = 5000');
    return (db.prepare('PRAGMA user_version').get() as { user_version: number }).user_version;
  } finally {
    db.close();
  }
}

function headerVersion(path: string): number | undefined {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch {
    return undefined;
  }
  try {
    const header = Buffer.alloc(100);
    if (readSync(fd, header, 0, 100, 0) < 100 || header.toString('latin1', 0, 15) !== 'SQLite format 3')
      return undefined;
    return header.readUInt32BE(60);
  } finally {
    closeSync(fd);
  }
}

/** A data folder written by a newer Sift: said in words, and nothing in it is changed. */
export class NewerDataError extends Error {
  override readonly name = 'NewerDataError';
}

/** The Sift that last opened a folder, from its marker. */
function lastOpenedBy(dir: string): string | undefined {
  try {
    return (JSON.parse(readFileSync(join(dir, markerName), 'utf8')) as { version?: string }).version;
  } catch {
    return undefined;
  }
}

/**
 * Opens a data folder for this Sift: refuses it, untouched, when any of its stores is newer than this Sift
 * knows; else makes it private (private-folder.ts), copies each older store before it is migrated, and
 * marks the folder as opened by `appVersion`. Answers `dir`.
 */
export function openDataFolder(
  dir: string,
  storesIn: (dir: string) => StoreFile[],
  appVersion: string,
  say: (line: string) => void,
): string {
  const stores = existsSync(dir) ? storesIn(dir) : [];
  const found = stores.map((store) => ({ ...store, onDisk: userVersionOnDisk(store.path) }));
  const newer = found.filter((store) => store.onDisk !== undefined && store.onDisk > store.known);
  if (newer.length > 0) {
    const by = lastOpenedBy(dir);
    const [first] = newer;
    throw new NewerDataError(
      `${first!.path} was written by a newer Sift${by ? ` (${by} last opened this folder)` : ''}: its schema is ` +
        `version ${first!.onDisk}, and Sift ${appVersion} reads up to ${first!.known}` +
        `${newer.length > 1 ? `; ${newer.length - 1} more of its files are newer too` : ''}. Sift ${appVersion} ` +
        'leaves the folder as it is: open it with that newer Sift, or give this one another folder (--data DIR or SIFT_DATA_DIR).',
    );
  }
  makePrivateFolder(dir, say);
  const copies = found
    .filter((store) => store.onDisk !== undefined && store.onDisk < store.known)
    .map((store) => copyBeforeMigration(store.path, appVersion));
  if (copies.length > 0) {
    say(
      `Sift ${appVersion} brings ${copies.length === 1 ? basename(copies[0]!.replace(/\.before-.*$/, '')) : `${copies.length} files`} ` +
        `up to date; a copy of each as it was is beside it: ${copies.length === 1 ? copies[0] : `${dirname(copies[0]!)}/…${copies[0]!.slice(copies[0]!.lastIndexOf('.before-'))}`}`,
    );
  }
  const marker = join(dir, markerName);
  writeFileSync(`${marker}.partial`, `${JSON.stringify({ version: appVersion }, null, 2)}\n`);
  renameSync(`${marker}.partial`, marker);
  return dir;
}

/**
 * `path` byte for byte as `<path>.before-<version>` (its write-ahead log beside it, as `…-wal`, when it holds
 * commits not yet in the file); earlier copies go. Nothing is open on it yet, so the pair is consistent.
 */
function copyBeforeMigration(path: string, appVersion: string): string {
  const copy = `${path}.before-${appVersion}`;
  for (const earlier of copiesOf(path)) rmSync(earlier, { force: true });
  copyFileSync(path, copy);
  if ((statSync(`${path}-wal`, { throwIfNoEntry: false })?.size ?? 0) > 0) copyFileSync(`${path}-wal`, `${copy}-wal`);
  return copy;
}

/** The copies of `path` made before migrations, oldest name first (their WAL files included). */
function copiesOf(path: string): string[] {
  const folder = dirname(path);
  const prefix = `${basename(path)}.before-`;
  if (!existsSync(folder)) return [];
  return readdirSync(folder)
    .filter((name) => name.startsWith(prefix))
    .sort()
    .map((name) => join(folder, name));
}

/** A migration that failed: the file goes back to the copy made before it, and the error says so. */
export class MigrationFailedError extends Error {}

/**
 * Runs `migrate` on an open store; if it fails, closes the store, puts back the copy made before it and
 * throws what happened, in words. The copy is the file as it was at this start (openDataFolder makes one
 * whenever a store is older than this Sift, before anything opens it); one of another schema version than
 * the file had is never put back.
 */
export function migrateOrRestore(path: string, db: DatabaseSync, migrate: () => void): void {
  // Read on the store's own connection. A second, read-only one opened and closed here, beside the store
  // in use (its write-ahead log live, threads writing), made the kill-and-resume soak bill part of a
  // killed list twice (found by bisecting; how it loses the writes is not worked out).
  const versionBefore = (db.prepare('PRAGMA user_version').get() as { user_version: number }).user_version;
  try {
    migrate();
  } catch (error) {
    db.close();
    const copy = copiesOf(path)
      .filter((name) => !name.endsWith('-wal'))
      .at(-1);
    const fresh = copy !== undefined && versionBefore !== undefined && userVersionOnDisk(copy) === versionBefore;
    if (fresh) {
      for (const suffix of ['-wal', '-shm']) rmSync(`${path}${suffix}`, { force: true });
      copyFileSync(copy, path);
      if (existsSync(`${copy}-wal`)) copyFileSync(`${copy}-wal`, `${path}-wal`);
    }
    const cause = error instanceof Error ? error.message : String(error);
    throw new MigrationFailedError(
      `Sift could not bring ${path} up to date (${cause}). ` +
        (fresh
          ? `It is back as it was, from the copy made before, which stays at ${copy}.`
          : 'Nothing was copied back: its migration runs in one transaction, or no copy of it as it was is there.'),
      { cause: error },
    );
  }
}
