// The data folder is its owner's alone: lists, do-not-mail addresses, verdicts and keys are a person's
// (or the service's) business, never another local account's. Made 0700; one made by an earlier version,
// or by a tool with a loose umask, is tightened at start (folders 0700, files without group or other
// bits), and the caller says so once. On Windows, the profile folder's ACL already keeps others out.
import { chmodSync, lstatSync, mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

/** Group and other permission bits: what a private file has none of. */
const sharedBits = 0o077;

/**
 * Makes `dir` (and its parents, as needed) 0700 and tightens what is inside; when it changed anything, says
 * so in one line. Answers `dir`.
 */
export function makePrivateFolder(dir: string, say: (line: string) => void, platform = process.platform): string {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  if (platform === 'win32') return dir;
  const found = { changed: 0, refused: undefined as string | undefined };
  tighten(dir, found);
  if (found.changed > 0) say(tightenedWords(dir, found.changed));
  if (found.refused) say(`Could not make ${found.refused}: other users of this computer may read it.`);
  return dir;
}

function tighten(path: string, found: { changed: number; refused: string | undefined }): void {
  const stat = lstatSync(path, { throwIfNoEntry: false });
  // A link is left as it is (its target may be anyone's); a file that went meanwhile is nothing to do.
  if (!stat || stat.isSymbolicLink()) return;
  if ((stat.mode & sharedBits) !== 0 || (stat.isDirectory() && (stat.mode & 0o700) !== 0o700)) {
    try {
      chmodSync(path, stat.isDirectory() ? 0o700 : stat.mode & 0o7700 & ~sharedBits);
      found.changed += 1;
    } catch (error) {
      // Another account's file (one left by `sudo sift`, say): said, and the rest still tightened.
      found.refused ??= `${path} private (${(error as NodeJS.ErrnoException).code ?? String(error)})`;
    }
  }
  if (stat.isDirectory()) for (const name of readdirSync(path)) tighten(join(path, name), found);
}

/** The line said once, when a folder was found open to other users of the computer. */
function tightenedWords(dir: string, changed: number): string {
  return `Made ${dir} private: ${changed.toLocaleString('en')} ${changed === 1 ? 'entry was' : 'entries were'} readable by other users of this computer.`;
}

/**
 * What every file this process creates gets: no group or other bits. Set once at an entry point's start
 * (the main thread's; a worker thread cannot).
 */
export function keepNewFilesPrivate(): void {
  if (process.platform !== 'win32') process.umask(0o077);
}
