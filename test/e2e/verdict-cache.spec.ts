// The verdict cache as a person meets it: a list dropped again says how many of its addresses are known
// already and free, can be checked in full instead, ends with the reused verdicts counted apart; Settings
// shows what is kept and forgets it after a second click. Screenshots in light and dark.
import { AxeBuilder } from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { expect, startHost, test } from './web-host-fixture.ts';

const newsletter = new URL('../fixtures/newsletter.csv', import.meta.url).pathname;

async function expectAccessible(page: Page) {
  const { violations } = await new AxeBuilder({ page }).analyze();
  expect(violations.filter((violation) => ['serious', 'critical'].includes(violation.impact ?? ''))).toEqual([]);
}

test('a list dropped again reuses what is known, or checks it all; Settings shows and clears the cache', async ({
  page,
}) => {
  const app = await startHost();
  try {
    await page.goto(app.url);
    await page.getByTestId('file-input').setInputFiles(newsletter);
    await expect(page.getByTestId('cached-count')).toHaveCount(0);
    await page.getByTestId('start-button').click();
    await expect(page.getByTestId('result-status')).toContainText('Done', { timeout: 20_000 });
    await expect(page.getByTestId('summary-cached')).toHaveCount(0);

    // The same list again: its valid, invalid and catch-all verdicts are known (the unknown one is not).
    await page.getByRole('button', { name: 'Clean another list' }).click();
    await page.getByTestId('file-input').setInputFiles(newsletter);
    const known = page.getByTestId('cached-count');
    await expect(known).toContainText('6 addresses have a demo verdict from an earlier list');
    await expect(page.getByTestId('cost')).toContainText('1 demo verdict from');
    await expect(page.getByTestId('start-button')).toHaveText('Demo-clean 1 address');
    for (const colorScheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme });
      await page.screenshot({ path: `test-results/screens/cache/review-${colorScheme}.png`, fullPage: true });
    }
    await page.emulateMedia({ colorScheme: 'light' });
    await expectAccessible(page);

    await page.getByLabel('Reuse verdicts from earlier lists').uncheck();
    await expect(known).toHaveCount(0);
    await expect(page.getByTestId('start-button')).toHaveText('Demo-clean 7 addresses');
    await page.getByLabel('Reuse verdicts from earlier lists').check();
    await expect(page.getByTestId('start-button')).toHaveText('Demo-clean 1 address');

    await page.getByTestId('start-button').click();
    await expect(page.getByTestId('result-status')).toContainText(
      '6 of them reused from earlier lists, not sent again.',
      { timeout: 20_000 },
    );
    await expect(page.getByTestId('summary-cached')).toContainText('6');
    await page.screenshot({ path: 'test-results/screens/cache/results.png', fullPage: true });

    await page.getByTestId('nav-settings').click();
    const stats = page.getByTestId('verdict-cache-stats');
    await expect(stats).toContainText('6 demo verdicts kept (from sandbox keys)');
    await page.getByTestId('clear-cache').click();
    for (const colorScheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme });
      await page
        .getByTestId('verdict-cache')
        .screenshot({ path: `test-results/screens/cache/settings-${colorScheme}.png` });
    }
    await page.emulateMedia({ colorScheme: 'light' });
    await expectAccessible(page);
    await page.getByTestId('confirm-clear-cache').click();
    await expect(page.getByText('Forgot 6 verdicts: the next lists check every address.')).toBeVisible();
    await expect(stats).toHaveText('No verdicts kept yet: each list checked adds its verdicts here.');
    await expect(page.getByTestId('clear-cache')).toBeDisabled();
  } finally {
    app.child.kill('SIGTERM');
  }
});
