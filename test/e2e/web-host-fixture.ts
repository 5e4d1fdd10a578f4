// Starts the real web host (`npm run web`'s entry point) as a child process on a random
// loopback port, with a throwaway data folder, and hands the test its URL. Every test, and every worker's
// beforeAll hooks, write their temporary files in a folder of their own (TMPDIR), removed when they end,
// passed or failed, after the web hosts they started are stopped (temp-root.ts checks nothing else is left).
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test as base, type Page } from '@playwright/test';
import { untilPrinted } from '../support/printed.ts';
import { ownersFolder } from './temp-root.ts';

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
  running.add(child);
  child.once('exit', () => running.delete(child));
  const [, url] = await untilPrinted(child, printedAppLink, 'the web host', 15_000);
  return { url: url!, child, dataDir };
}

/** Web hosts started and not yet ended: a test that fails before it stops its own has them stopped. */
const running = new Set<ChildProcess>();

/**
 * Stops a process the test started and waits for it to exit: the app and the services write their data
 * folders as they close, and the test's folder is removed after.
 */
export async function stopChild(child: ChildProcess, signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill(signal);
  await exited;
}

async function stopRunningHosts(): Promise<void> {
  await Promise.all([...running].map((child) => stopChild(child)));
}

/** A folder of the run's temporary folder as TMPDIR while `use` runs, then removed with what is in it. */
async function inTempFolder(name: string, owner: string, use: () => Promise<void>): Promise<void> {
  const outer = process.env.TMPDIR;
  const root = process.env.SIFT_E2E_TEMP_ROOT ?? tmpdir();
  const folder = join(root, name);
  mkdirSync(folder, { recursive: true });
  // Who the folder is for, kept outside it: a folder left behind is named by its test (temp-root.ts).
  mkdirSync(join(root, ownersFolder), { recursive: true });
  writeFileSync(join(root, ownersFolder, name), owner);
  process.env.TMPDIR = folder;
  try {
    await use();
  } finally {
    await stopRunningHosts();
    process.env.TMPDIR = outer;
    rmSync(folder, { recursive: true, force: true, maxRetries: 5 });
  }
}

/**
 * A web host per test, with a data folder of its own: what one test's lists leave behind (jobs, the
 * verdict cache) never changes what another sees.
 */
export const test = base.extend<{ hostUrl: string; testTemp: void }, { workerTemp: void }>({
  workerTemp: [
    // eslint-disable-next-line no-empty-pattern
    ({}, use, worker) => inTempFolder(`worker-${worker.workerIndex}`, `worker ${worker.workerIndex}'s hooks`, use),
    { scope: 'worker', auto: true },
  ],
  // After the worker's browser is up: it keeps its shared memory in the TMPDIR it started with, the worker's.
  testTemp: [
    ({ browser: _started }, use, info) =>
      inTempFolder(`test-${info.testId}`, `${info.file.split('/').at(-1)}: ${info.title}`, use),
    { auto: true },
  ],
  // Playwright reads the fixtures a function wants from its first parameter, so it must be a pattern.
  // eslint-disable-next-line no-empty-pattern
  hostUrl: async ({}, use) => {
    const { url, child, dataDir } = await startHost();
    await use(url);
    await stopChild(child);
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
