// Each test file's temporary folder (see temp-root.ts): made before the file is loaded, so what it makes at
// the top of the file goes there too, and removed when its tests end, whether they passed or failed.
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll } from 'vitest';

const root = process.env.SIFT_TEST_TEMP_ROOT;
if (root) {
  const folder = mkdtempSync(join(root, 'file-'));
  chmodSync(folder, 0o755); // PostgreSQL and the mail servers run as their own users
  process.env.TMPDIR = folder;
  // Retried: a process a test ended may still be closing files in it for a moment.
  afterAll(() => rmSync(folder, { recursive: true, force: true, maxRetries: 10, retryDelay: 200 }));
}
