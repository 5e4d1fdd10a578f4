import { basename } from 'node:path';
import { defineConfig } from '@playwright/test';
import { tierFiles } from '../tiers.ts';
import { chromiumArgs, chromiumExecutablePath } from './browser.ts';
import { testCompileCache } from '../support/test-compile-cache.ts';

// The web hosts and `sift` services the tests start share one compiled-module cache, as vitest's do.
process.env.NODE_COMPILE_CACHE ??= testCompileCache;
// Chromium unpacked once, by the runner, into the system's temp folder: the workers load this file again
// after the run's own temp folder is set (temp-root.ts), and must not each unpack it there while another
// starts it (ETXTBSY).
process.env.CHROMIUM_PATH ??= await chromiumExecutablePath();

// `npm test` runs every browser test but the binary's, which `npm run test:binary` runs (test/tiers.ts).
const binary = tierFiles.binary.filter((file) => file.endsWith('.spec.ts')).map((file) => `**/${basename(file)}`);

export default defineConfig({
  testDir: '.',
  ...(process.env.SIFT_E2E_TIER === 'binary' ? { testMatch: binary } : { testIgnore: binary }),
  outputDir: '../../test-results/e2e',
  timeout: 30_000,
  // Every temporary file of the run under a folder of its own, removed when it ends (temp-root.ts).
  globalSetup: './temp-root.ts',
  workers: 2,
  reporter: [['list']],
  use: {
    browserName: 'chromium',
    viewport: { width: 1100, height: 760 },
    launchOptions: { executablePath: process.env.CHROMIUM_PATH, args: chromiumArgs },
  },
});
