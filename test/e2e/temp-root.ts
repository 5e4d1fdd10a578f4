// The browser tests' temporary files, as the vitest tiers' (test/support/temp-root.ts): all under one folder
// of the run's (TMPDIR for the workers and the web hosts and services they start), removed when the run
// ends. Each test and each worker has a folder of its own there, removed when it ends (web-host-fixture.ts):
// anything else left in the run's folder was made outside them and not removed, and the run fails naming it.
import { chmodSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Beside the folders: a file per folder naming the test or worker it is for. */
export const ownersFolder = '.owners';

export default function setup(): () => void {
  // Open to other accounts to pass through (0755): PostgreSQL and the mail servers drop to their own users.
  const root = mkdtempSync(join(tmpdir(), 'sift-e2e-run-'));
  chmodSync(root, 0o755);
  process.env.TMPDIR = root;
  process.env.SIFT_E2E_TEMP_ROOT = root;
  return () => {
    const left = readdirSync(root)
      .filter((name) => name !== ownersFolder)
      .map((name) => {
        const owner = join(root, ownersFolder, name);
        return existsSync(owner) ? `${name} (${readFileSync(owner, 'utf8')})` : name;
      });
    rmSync(root, { recursive: true, force: true });
    if (left.length > 0) {
      throw new Error(
        `The browser tests left ${left.length} entries in their temporary folder, removed now: ${left.slice(0, 10).join(', ')}`,
      );
    }
  };
}
