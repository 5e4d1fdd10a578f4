import { basename } from 'node:path';
import { defineConfig } from '@playwright/test';
import { browserTierFiles, tieredFiles, tierFiles } from '../tiers.ts';
import { chromiumArgs, chromiumExecutablePath } from './browser.ts';
import { quietExperimentalWarnings, testCompileCache } from '../support/test-compile-cache.ts';

// The web hosts and `sift` services the tests start share one compiled-module cache, as vitest's do.
process.env.NODE_COMPILE_CACHE ??= testCompileCache;
quietExperimentalWarnings();
// Chromium unpacked once, by the runner, into the system's temp folder: the workers load this file again
// after the run's own temp folder is set (temp-root.ts), and must not each unpack it there while another
// starts it (ETXTBSY).
process.env.CHROMIUM_PATH ??= await chromiumExecutablePath();

// `npm test` runs every browser test not in a tier of its own; `SIFT_E2E_TIER=<tier>` runs a tier's (the
// binary's, the screens' sweep), as `npm run test:<tier>` does (test/tiers.ts).
const tier = process.env.SIFT_E2E_TIER as keyof typeof tierFiles | undefined;
const pattern = (file: string) => `**/${basename(file)}`;
const files = tier
  ? { testMatch: browserTierFiles(tier).map(pattern) }
  : { testIgnore: tieredFiles.filter((file) => file.endsWith('.spec.ts')).map(pattern) };

export default defineConfig({
  testDir: '.',
  ...files,
  outputDir: '../../test-results/e2e',
  timeout: 30_000,
  // npm test runs the browser tests beside vitest's files on the same cores: a screen may take longer to
  // change than Playwright's 5 s default while both are busy.
  expect: { timeout: 10_000 },
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
