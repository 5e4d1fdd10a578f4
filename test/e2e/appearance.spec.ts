// Every screen in light and dark mode, at a desktop and a small window size: screenshots to look at
// (test-results/screens/appearance/), and axe-core finds no serious or critical violation on any of them;
// and an appearance chosen in Settings (light, dark or the system's) wins over the system in every window.
import { AxeBuilder } from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { expect, startHost, test } from './web-host-fixture.ts';

const newsletter = new URL('../fixtures/newsletter.csv', import.meta.url).pathname;

async function expectAccessible(page: Page, screen: string) {
  const { violations } = await new AxeBuilder({ page }).analyze();
  const serious = violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map(
      (violation) => `${screen}: ${violation.id} (${violation.nodes.map((node) => node.target.join(' ')).join(', ')})`,
    );
  expect(serious).toEqual([]);
}

for (const colorScheme of ['light', 'dark'] as const) {
  for (const viewport of [
    { width: 1280, height: 800 },
    { width: 800, height: 600 },
  ]) {
    const size = `${viewport.width}x${viewport.height}`;
    test(`screens in ${colorScheme} mode at ${size}`, async ({ page, hostUrl }) => {
      await page.emulateMedia({ colorScheme });
      await page.setViewportSize(viewport);
      const shot = async (name: string) => {
        await page.screenshot({
          path: `test-results/screens/appearance/${name}-${colorScheme}-${size}.png`,
          fullPage: true,
        });
        await expectAccessible(page, `${name} (${colorScheme}, ${size})`);
      };
      await page.goto(hostUrl);
      await expect(page.getByRole('heading', { name: 'Drop a CSV list here' })).toBeVisible();
      await shot('drop');

      await page.getByTestId('file-input').setInputFiles(newsletter);
      await expect(page.getByTestId('cost')).toBeVisible();
      await shot('review');

      await page.getByTestId('start-button').click();
      await expect(page.getByTestId('result-status')).toContainText('Done', { timeout: 20_000 });
      await page.getByTestId('export-button').click();
      await expect(page.getByTestId('download-cleaned')).toBeVisible();
      await shot('results');

      await page.getByTestId('nav-history').click();
      await expect(page.getByTestId('history-table')).toBeVisible();
      await shot('history');

      await page.getByTestId('nav-settings').click();
      await expect(page.getByLabel('Service URL')).toBeVisible();
      await shot('settings');

      await page.getByTestId('nav-check').click();
      await page.getByLabel('Email address').fill('valid.look@example.com');
      await page.getByRole('button', { name: 'Check', exact: true }).click();
      await expect(page.getByTestId('check-answer')).toContainText('Valid');
      await shot('check');

      await page.getByTestId('nav-service').click();
      await expect(page.getByTestId('service-keys')).toBeVisible();
      await shot('service');
    });
  }
}

test('a chosen appearance overrides the system in every window, and outlives a reload', async ({ browser }) => {
  // An app of its own: the choice is saved, and the shared app's screenshots expect the system's colours.
  const app = await startHost();
  const context = await browser.newContext({ colorScheme: 'light' });
  try {
    const background = (page: Page) => page.evaluate(() => getComputedStyle(document.documentElement).backgroundColor);
    const light = 'rgb(246, 247, 249)';
    const dark = 'rgb(17, 20, 24)';
    const first = await context.newPage();
    await first.goto(app.url);
    await expect.poll(() => background(first)).toBe(light);

    await first.getByTestId('nav-settings').click();
    const appearance = first.getByTestId('appearance');
    await expect(appearance.getByLabel('As the system')).toBeChecked();
    await appearance.getByLabel('Dark').check();
    await expect.poll(() => background(first)).toBe(dark);
    await first.screenshot({ path: 'test-results/screens/appearance/chosen-dark.png', fullPage: true });
    await expectAccessible(first, 'settings with Dark chosen');

    // A second window opens dark too; choosing Light there turns the first one as well.
    const second = await context.newPage();
    await second.goto(app.url);
    await expect.poll(() => background(second)).toBe(dark);
    await second.getByTestId('nav-settings').click();
    await second.getByTestId('appearance').getByLabel('Light').check();
    await expect.poll(() => background(first)).toBe(light);
    await first.emulateMedia({ colorScheme: 'dark' });
    await expect.poll(() => background(first)).toBe(light);

    // Back to the system's: the first window follows its (dark) system again, also after a reload.
    await second.getByTestId('appearance').getByLabel('As the system').check();
    await expect.poll(() => background(first)).toBe(dark);
    await first.reload();
    await expect.poll(() => background(first)).toBe(dark);
  } finally {
    await context.close();
    app.child.kill('SIGTERM');
  }
});
