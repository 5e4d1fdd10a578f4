// The browser tests' temporary files, as the vitest tiers' (test/support/temp-root.ts): all under one folder
// of the run's (TMPDIR for the workers and the web hosts and services they start), removed when the run
// ends. What was left there is named; unlike vitest's tiers, not every browser test removes what it made
// yet, so it is said, not failed.
import { chmodSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export default function setup(): () => void {
  // Open to other accounts to pass through (0755): PostgreSQL and the mail servers drop to their own users.
  const root = mkdtempSync(join(tmpdir(), 'sift-e2e-run-'));
  chmodSync(root, 0o755);
  process.env.TMPDIR = root;
  return () => {
    const left = readdirSync(root);
    rmSync(root, { recursive: true, force: true });
    if (left.length > 0) console.log(`The browser tests left ${left.length} folders; removed with the run's.`);
  };
}
