// The whole flow by keyboard alone: reach "Choose a file" with Tab (the system's file chooser is the one
// step a test cannot press keys in, so the file is set on the input), start, export and download, then
// go to History, with Tab and Enter.
import { expect, test } from './web-host-fixture.ts';

const newsletter = new URL('../fixtures/newsletter.csv', import.meta.url).pathname;

/** Presses Tab until `target` has focus (at most `limit` times). */
async function tabTo(page: import('@playwright/test').Page, target: import('@playwright/test').Locator, limit = 60) {
  for (let tries = 0; tries < limit; tries += 1) {
    if (await target.evaluate((element) => element === document.activeElement).catch(() => false)) return;
    await page.keyboard.press('Tab');
  }
  await expect(target).toBeFocused();
}

test('a list is cleaned and its file downloaded with the keyboard alone', async ({ page, hostUrl }) => {
  await page.goto(hostUrl);
  const choose = page.getByRole('button', { name: 'Choose a file' });
  await tabTo(page, choose);
  // Headless Chromium on a clean CI clone opens no chooser for Enter here, though it does locally (and
  // the button is a plain <button> whose click opens the input): the file goes to the input directly, once
  // the button is shown to be reachable by keyboard.
  await page.getByTestId('file-input').setInputFiles(newsletter);

  await expect(page.getByTestId('cost')).toBeVisible();
  await tabTo(page, page.getByTestId('start-button'));
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('result-status')).toContainText('Done', { timeout: 20_000 });

  // The keep options are checkboxes: Space ticks one.
  await tabTo(page, page.getByLabel('Catch-all', { exact: true }));
  await page.keyboard.press('Space');
  await expect(page.getByLabel('Catch-all', { exact: true })).toBeChecked();
  await tabTo(page, page.getByTestId('export-button'));
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('download-cleaned')).toBeVisible();
  await tabTo(page, page.getByTestId('download-cleaned'));
  const download = page.waitForEvent('download');
  await page.keyboard.press('Enter');
  expect((await download).suggestedFilename()).toBe('newsletter.demo.cleaned.csv');

  await tabTo(page, page.getByTestId('nav-history'), 120);
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { name: 'History' })).toBeFocused();
});
