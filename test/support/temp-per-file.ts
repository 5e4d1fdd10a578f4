// Each test file's temporary folder (see temp-root.ts): made before the file is loaded, so what it makes at
// the top of the file goes there too, and removed when its tests end, whether they passed or failed.
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { basename, join } from 'node:path';
import { afterAll, expect } from 'vitest';

const root = process.env.SIFT_TEST_TEMP_ROOT;
if (root) {
  // Named after its file: what is left in it says which file's tests made it (temp-root.ts names it).
  const folder = mkdtempSync(join(root, `file-${basename(expect.getState().testPath ?? 'unknown')}-`));
  chmodSync(folder, 0o755); // PostgreSQL and the mail servers run as their own users
  process.env.TMPDIR = folder;
  // Retried: a process a test ended may still be closing files in it for a moment.
  afterAll(() => rmSync(folder, { recursive: true, force: true, maxRetries: 10, retryDelay: 200 }));
}
