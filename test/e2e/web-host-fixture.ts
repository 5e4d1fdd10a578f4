// Starts the real web host (`npm run web`'s entry point) as a child process on a random
// loopback port, with a throwaway data folder, and hands the test its URL.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test as base, type Page } from '@playwright/test';
import { untilPrinted } from '../support/printed.ts';

const entry = new URL('../../electron/cli/web-host-main.ts', import.meta.url).pathname;

/** The link the app prints when it starts, with this run's token. */
export const printedAppLink = /running at (http:\/\/127\.0\.0\.1:\d+\/\?token=\S+)/;

/**
 * A web host of its own (a test that restarts the app passes the same data folder again). A new data folder
 * starts with the first-run question answered (the demo), unless `firstRun`; `args` are `npm run web` flags.
 */
export async function startHost(
  dataDir = mkdtempSync(join(tmpdir(), 'sift-e2e-')),
  options: { firstRun?: boolean; args?: string[] } = {},
): Promise<{ url: string; child: ChildProcess; dataDir: string }> {
  const settingsFile = join(dataDir, 'settings.json');
  if (!options.firstRun && !existsSync(settingsFile)) writeFileSync(settingsFile, '{"checkingChosen":true}');
  const child = spawn(process.execPath, [entry, '--data', dataDir, ...(options.args ?? [])], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const [, url] = await untilPrinted(child, printedAppLink, 'the web host', 15_000);
  return { url: url!, child, dataDir };
}

/**
 * A web host per test, with a data folder of its own: what one test's lists leave behind (jobs, the
 * verdict cache) never changes what another sees.
 */
export const test = base.extend<{ hostUrl: string }>({
  // Playwright reads the fixtures a function wants from its first parameter, so it must be a pattern.
  // eslint-disable-next-line no-empty-pattern
  hostUrl: async ({}, use) => {
    const { url, child, dataDir } = await startHost();
    await use(url);
    const exited = child.exitCode === null ? new Promise((resolve) => child.once('exit', resolve)) : undefined;
    child.kill('SIGTERM');
    await exited;
    rmSync(dataDir, { recursive: true, force: true });
  },
});

export { expect } from '@playwright/test';

/** Drops a CSV list of `text` on the clean screen, starts checking it, and waits until its results say Done. */
export async function cleanCsv(page: Page, name: string, text: string, timeoutMs = 20_000): Promise<void> {
  await page.getByTestId('file-input').setInputFiles({ name, mimeType: 'text/csv', buffer: Buffer.from(text) });
  await page.getByTestId('start-button').click();
  await expect(page.getByTestId('result-status')).toContainText('Done', { timeout: timeoutMs });
}
