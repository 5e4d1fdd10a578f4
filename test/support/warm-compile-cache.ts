// Before the run's workers start: one `sift clean` of a two-row list, so that the compiled-module cache the
// tests' processes and threads share (test-compile-cache.ts) holds the CLI's, the threads' and the embedded
// service's modules. On a fresh clone the workers' first `sift` processes would each compile them at once.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runSift } from './run-sift.ts';
import { testCompileCache } from './test-compile-cache.ts';

export default async function warmCompileCache(): Promise<void> {
  const folder = mkdtempSync(join(tmpdir(), 'sift-warm-'));
  try {
    writeFileSync(join(folder, 'warm.csv'), 'email\nvalid.a@example.com\ninvalid.b@example.com\n');
    // Its outcome is the tests' to judge: a clean that fails here fails there, with its words.
    await runSift(
      ['clean', join(folder, 'warm.csv')],
      { NODE_COMPILE_CACHE: testCompileCache, SIFT_DATA_DIR: join(folder, 'data') },
      60_000,
    );
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}
