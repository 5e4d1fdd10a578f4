// The single executable as a person who downloaded it starts it: `sift` alone serves the app (here with
// --no-open, the browser being the test's), a list dropped on it reaches its results, and the app's own
// Quit stops the process.
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { DatabaseSync } from 'node:sqlite';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { builtSift } from '../support/sift-binary.ts';
import { untilPrinted } from '../support/printed.ts';
import { cleanCsv, expect, printedAppLink, test } from './web-host-fixture.ts';

test('the binary serves the app, cleans a dropped list, and Quit stops it', async ({ page }) => {
  test.setTimeout(300_000);
  const { executable } = await builtSift();
  const folder = mkdtempSync(join(tmpdir(), 'sift-e2e-binary-'));
  const data = join(folder, 'data');
  mkdirSync(data);
  writeFileSync(join(data, 'settings.json'), '{"checkingChosen":true}');
  mkdirSync(join(folder, 'no-node'));
  const child = spawn(executable, ['--no-open', '--data', data], {
    cwd: folder,
    env: { PATH: join(folder, 'no-node'), HOME: folder },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  try {
    const [, url] = await untilPrinted(child, printedAppLink, "the binary's app link");
    await page.goto(url!);
    await expect(page.getByRole('heading', { name: 'Drop a CSV list here' })).toBeVisible();
    await cleanCsv(
      page,
      'team.csv',
      'email,name\nann@example.com,Ann\nbob@example.org,Bob\nbroken@@example.com,Broken\n',
    );
    await expect(page.getByTestId('result-status')).toContainText('demo verdicts for 2 addresses from 3 rows');
    // The chart's code is a chunk of its own, loaded when first shown: the binary serves every file of the build.
    await expect(page.getByTestId('verdict-chart').locator('svg').first()).toBeVisible();
    await page.waitForTimeout(600); // the bars' entrance, for the screenshot
    await page.screenshot({ path: 'test-results/screens/binary-results.png', fullPage: true });
    // The list's search index is built on a thread of its own, whose code the binary carries as an asset.
    const listFile = () => readdirSync(join(data, 'jobs')).find((name) => name.endsWith('.sqlite'));
    const indexedRows = () => {
      const name = listFile();
      if (!name) return undefined;
      const list = new DatabaseSync(join(data, 'jobs', name), { readOnly: true });
      try {
        return (
          list.prepare("SELECT value FROM counters WHERE name = 'row_search_rows'").get() as
            { value: number } | undefined
        )?.value;
      } finally {
        list.close();
      }
    };
    await expect.poll(indexedRows, { timeout: 15_000 }).toBe(3);
    await page.emulateMedia({ colorScheme: 'dark' });
    await expect(page.getByTestId('quit-button')).toBeVisible();
    await page.screenshot({ path: 'test-results/screens/binary-results-dark.png' });
    await page.getByTestId('quit-button').click();
    await expect(page.getByRole('heading', { name: 'Sift has stopped' })).toBeVisible();
    await page.screenshot({ path: 'test-results/screens/binary-quit.png' });
    const code = await Promise.race([exited, new Promise((resolve) => setTimeout(() => resolve('running'), 10_000))]);
    expect(code).toBe(0);
  } finally {
    child.kill('SIGKILL');
  }
});
