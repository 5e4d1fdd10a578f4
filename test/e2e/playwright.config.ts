import { defineConfig } from '@playwright/test';
import { chromiumArgs, chromiumExecutablePath } from './browser.ts';

// The web hosts and `sift` services the tests start share one compiled-module cache (compile-cache.ts),
// here rather than in the person's cache folder (vitest's config sets the same).
process.env.NODE_COMPILE_CACHE ??= new URL('../../node_modules/.cache/sift-compiled-modules', import.meta.url).pathname;

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
