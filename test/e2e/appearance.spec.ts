// An appearance chosen in Settings (light, dark or the system's) wins over the system in every window, and
// outlives a reload. The sweep of every screen in each scheme and size is screens.spec.ts's (npm run
// test:screens).
import type { Page } from '@playwright/test';
import { expect, startHost, test } from './web-host-fixture.ts';
import { expectAccessible } from './screen-sweep.ts';

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
