import { defineConfig } from '@playwright/test';

// Debian's Chromium, never a downloaded browser (this machine cannot fetch one).
export default defineConfig({
  testDir: '.',
  outputDir: '../../test-results/e2e',
  timeout: 30_000,
  workers: 1,
  reporter: [['list']],
  use: {
    browserName: 'chromium',
    viewport: { width: 1100, height: 760 },
    launchOptions: {
      executablePath: process.env.SIFT_CHROMIUM ?? '/usr/bin/chromium',
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
      ],
    },
  },
});
