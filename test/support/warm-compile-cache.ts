// Before the run's workers start: one `sift clean` of a two-row list, so that the compiled-module cache the
// tests' processes and threads share (test-compile-cache.ts) holds the CLI's, the threads' and the embedded
// service's modules. On a fresh clone the workers' first `sift` processes would each compile them at once.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { testCompileCache } from './test-compile-cache.ts';

const sift = new URL('../../electron/cli/sift.ts', import.meta.url).pathname;

export default function warmCompileCache(): void {
  const folder = mkdtempSync(join(tmpdir(), 'sift-warm-'));
  try {
    writeFileSync(join(folder, 'warm.csv'), 'email\nvalid.a@example.com\ninvalid.b@example.com\n');
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      NODE_COMPILE_CACHE: testCompileCache,
      SIFT_DATA_DIR: join(folder, 'data'),
    };
    delete env.SIFT_API_KEY;
    delete env.SIFT_BASE_URL;
    // Its outcome is the tests' to judge: a clean that fails here fails there, with its words.
    spawnSync(process.execPath, ['--disable-warning=ExperimentalWarning', sift, 'clean', join(folder, 'warm.csv')], {
      env,
      stdio: 'ignore',
      timeout: 60_000,
    });
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}
