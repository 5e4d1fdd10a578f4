// The do-not-mail list as a person keeps it: typed by hand and from a file, searched and removed; a list
// dropped afterwards counts what it leaves out on the review screen and the results. Screenshots light
// and dark, and axe-core finds nothing serious.
import { AxeBuilder } from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { expect, test } from './web-host-fixture.ts';

const newsletter = new URL('../fixtures/newsletter.csv', import.meta.url).pathname;

async function expectAccessible(page: Page) {
  const { violations } = await new AxeBuilder({ page }).analyze();
  expect(violations.filter((violation) => ['serious', 'critical'].includes(violation.impact ?? ''))).toEqual([]);
}

test('the do-not-mail list is kept on its screen, and a list is read against it', async ({ page, hostUrl }) => {
  await page.goto(hostUrl);
  await page.getByTestId('nav-suppression').click();
  await expect(page.getByRole('heading', { name: 'Do-not-mail list' })).toBeFocused();
  await expect(page.getByTestId('suppression-shown')).toHaveText('Nothing on the list yet.');

  await page.getByLabel('Addresses and domains, one per line').fill('VALID.ANN@example.com\nexample.net\nnonsense');
  await page.getByRole('button', { name: 'Add to the list' }).click();
  await expect(page.getByTestId('suppression-notice')).toHaveText(
    'Typed: 2 entries added. 1 line left out: neither an address nor a domain.',
  );
  await expect(page.getByTestId('suppression-refused')).toContainText('nonsense');
  await page.getByTestId('suppression-file').setInputFiles({
    name: 'unsubscribes.csv',
    mimeType: 'text/csv',
    buffer: Buffer.from('Email,Date\ninfo@example.com,2026-11-01\nvalid.ann@example.com,2026-11-02\n'),
  });
  await expect(page.getByTestId('suppression-notice')).toHaveText(
    'unsubscribes.csv: 1 entry added (1 was listed already).',
  );
  await expect(page.getByTestId('suppression-counts')).toContainText('2 addresses and 1 domain are never sent');
  const table = page.getByTestId('suppression-table');
  await expect(table.locator('tbody tr')).toHaveCount(3);
  for (const colorScheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme });
    await page.screenshot({ path: `test-results/screens/suppression/list-${colorScheme}.png`, fullPage: true });
  }
  await page.emulateMedia({ colorScheme: 'light' });
  await expectAccessible(page);

  await page.getByRole('searchbox').fill('info');
  await page.getByRole('button', { name: 'Find' }).click();
  await expect(table.locator('tbody tr')).toHaveCount(1);
  await page.getByRole('button', { name: 'Remove info@example.com' }).click();
  await expect(page.getByTestId('suppression-notice')).toHaveText('Removed info@example.com: it can be sent again.');
  await expect(page.getByTestId('suppression-counts')).toContainText('1 address and 1 domain');

  // valid.ann (twice in the list: once suppressed, once a duplicate) and catchall.carla@example.net are left out.
  await page.getByTestId('nav-clean').click();
  await page.getByTestId('file-input').setInputFiles(newsletter);
  await expect(page.getByTestId('precheck-suppressed')).toContainText('2');
  await expect(page.getByTestId('precheck-to-check')).toContainText('5');
  // The list changes while this one waits on its review: Start reads it again and shows why, sending nothing.
  await page.getByTestId('nav-suppression').click();
  await page.getByLabel('Addresses and domains, one per line').fill('invalid.bob@example.org');
  await page.getByRole('button', { name: 'Add to the list' }).click();
  await expect(page.getByTestId('suppression-notice')).toHaveText('Typed: 1 entry added.');
  await page.getByTestId('nav-clean').click();
  await page.getByTestId('start-button').click();
  await expect(page.getByRole('alert')).toContainText('read again before sending');
  await expect(page.getByTestId('precheck-suppressed')).toContainText('3');
  await expect(page.getByTestId('start-button')).toHaveText('Demo-clean 4 addresses');
  await page.getByTestId('start-button').click();
  await expect(page.getByTestId('result-status')).toContainText('Done', { timeout: 20_000 });
  await expect(page.getByTestId('funnel')).toContainText('Do not mail 3');
  await expect(page.getByTestId('summary-suppressed')).toContainText('3');
  await page.screenshot({ path: 'test-results/screens/suppression/results.png', fullPage: true });

  await page.getByTestId('nav-suppression').click();
  await page.getByTestId('clear-suppression').click();
  await page.getByTestId('confirm-clear-suppression').click();
  await expect(page.getByTestId('suppression-notice')).toHaveText('Forgot 3 entries: nothing is suppressed now.');
  await expect(page.getByTestId('suppression-shown')).toHaveText('Nothing on the list yet.');
});
