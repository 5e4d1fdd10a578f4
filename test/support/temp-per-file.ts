// Each test file's temporary folder (see temp-root.ts): made before the file is loaded, so what it makes at
// the top of the file goes there too, and removed when its tests end, whether they passed or failed.
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeEach, expect } from 'vitest';
import { markTestRunning, stopLeftChildren } from './test-children.ts';

const root = process.env.SIFT_TEST_TEMP_ROOT;
if (root) {
  // A short name: the mail servers' sockets live under it, and a socket's path holds 107 bytes at most.
  const folder = mkdtempSync(join(root, 'file-'));
  chmodSync(folder, 0o755); // PostgreSQL and the mail servers run as their own users
  // Which file it is, beside it: what is left in it says which file's tests made it (temp-root.ts names it).
  writeFileSync(`${folder}.owner`, expect.getState().testPath ?? 'unknown');
  process.env.TMPDIR = folder;
  // A process a test started and left running (it failed, or timed out waiting) is stopped once the test's
  // own cleanup has run (its afterEach and onTestFinished, which vitest calls after every afterEach): before
  // the next test, or when the file ends. It neither works on in a folder about to go nor runs into the next
  // test or file.
  const stopLeft = async (which: 'tests' | 'all') => {
    const left = await stopLeftChildren(which);
    if (left.length > 0) process.stderr.write(`Stopped what the test left running: ${left.join('; ')}\n`);
  };
  beforeEach(async () => {
    await stopLeft('tests');
    markTestRunning(true);
  });
  afterEach(() => void markTestRunning(false));
  // Retried: a process a test ended may still be closing files in it for a moment.
  afterAll(async () => {
    await stopLeft('all');
    rmSync(folder, { recursive: true, force: true, maxRetries: 10, retryDelay: 200 });
    rmSync(`${folder}.owner`, { force: true });
  });
}
