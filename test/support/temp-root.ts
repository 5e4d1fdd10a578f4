// Tests leave nothing behind. A run's temporary files all go under one folder of its own (TMPDIR for the
// run's workers and every process they start); each test file gets a folder inside it, made before the file
// is loaded and removed when it ends, passed or failed (temp-per-file.ts). At the end of the run the run's
// folder must be empty: anything left there was made outside a test file's life and not removed, and the
// run fails naming it. The folder is removed either way, so a run never adds to the system's temp folder.
import { chmodSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';

export default function setup(): () => void {
  // Open to other accounts to pass through (0755): PostgreSQL and the mail servers drop to their own users.
  const root = mkdtempSync(join(tmpdir(), 'sift-test-run-'));
  chmodSync(root, 0o755);
  process.env.SIFT_TEST_TEMP_ROOT = root;
  // The kept data folders name their list where it was made, in the system's temp folder (fixture-list.ts).
  process.env.SIFT_TEST_SYSTEM_TMPDIR ??= tmpdir();
  process.env.TMPDIR = root;
  return () => {
    // A test file whose tests were all skipped never ran its hooks: its folder is there, empty, and that is fine.
    // A test file's folder has its file's name beside it (temp-per-file.ts); a skipped file's is left empty.
    const entries = readdirSync(root);
    const left = entries.filter(
      (name) => !name.endsWith('.owner') && !(name.startsWith('file-') && isEmptyFolder(join(root, name))),
    );
    // Whose it is, and what is in it.
    const named = left.slice(0, 10).map((name) => {
      const path = join(root, name);
      const owner = entries.includes(`${name}.owner`) ? readFileSync(`${path}.owner`, 'utf8') : undefined;
      const inside = statSync(path).isDirectory() ? readdirSync(path, { recursive: true }).slice(0, 5) : [];
      return `${name}${owner ? ` of ${relative(process.cwd(), owner)}` : ''}${inside.length > 0 ? ` (${inside.join(', ')})` : ''}`;
    });
    rmSync(root, { recursive: true, force: true });
    if (left.length > 0) {
      throw new Error(`Tests left ${left.length} entries in their temporary folder, removed now: ${named.join('; ')}`);
    }
  };
}

function isEmptyFolder(path: string): boolean {
  return statSync(path).isDirectory() && readdirSync(path).length === 0;
}
