// A screen that fails to render shows what went wrong and a way back; the rest of the app carries on.
// The fault is made from outside the app: the browser's date formatting breaks for the History table only.
import { expect, startHost, test } from './web-host-fixture.ts';

const contacts = new URL('../fixtures/contacts.csv', import.meta.url).pathname;

test('a screen that fails shows the problem and a way back, and the app carries on', async ({ page }) => {
  const host = await startHost();
  try {
    await page.goto(host.url);
    await page.getByTestId('file-input').setInputFiles(contacts);
    await expect(page.getByTestId('start-button')).toBeEnabled();
    await page.addInitScript(() => {
      const original = Date.prototype.toLocaleString;
      Date.prototype.toLocaleString = function (this: Date, ...args: Parameters<typeof original>) {
        if ((args[1] as Intl.DateTimeFormatOptions | undefined)?.dateStyle === 'medium') throw new Error('dates broke');
        return original.apply(this, args);
      };
    });
    await page.reload();
    await page.getByTestId('nav-history').click();
    const problem = page.getByTestId('screen-error');
    await expect(problem).toContainText('“History” ran into a problem');
    await expect(problem).toContainText('Nothing was lost');
    await expect(problem).toContainText('dates broke');
    // The header and the status bar are still there, and the way back works.
    await expect(page.getByTestId('activity')).toBeVisible();
    for (const colorScheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme });
      await page.screenshot({ path: `test-results/screens/screen-error-${colorScheme}.png`, fullPage: true });
    }
    await page.getByRole('button', { name: 'Back to Clean a list' }).click();
    await expect(page.getByTestId('screen-error')).toHaveCount(0);
    await expect(page.getByTestId('nav-clean')).toHaveAttribute('aria-current', 'page');
    await page.getByTestId('nav-settings').click();
    await expect(page.getByRole('heading', { name: 'Settings' })).toBeVisible();
  } finally {
    host.child.kill('SIGTERM');
  }
});
