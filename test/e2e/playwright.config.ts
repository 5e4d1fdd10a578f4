import { defineConfig } from '@playwright/test';
import { chromiumArgs, chromiumExecutablePath } from './browser.ts';
import { testCompileCache } from '../support/test-compile-cache.ts';

// The web hosts and `sift` services the tests start share one compiled-module cache, as vitest's do.
process.env.NODE_COMPILE_CACHE ??= testCompileCache;

export default defineConfig({
  testDir: '.',
  outputDir: '../../test-results/e2e',
  timeout: 30_000,
  workers: 2,
  reporter: [['list']],
  use: {
    browserName: 'chromium',
    viewport: { width: 1100, height: 760 },
    launchOptions: { executablePath: await chromiumExecutablePath(), args: chromiumArgs },
  },
});
