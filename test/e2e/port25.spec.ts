// A service whose network blocks port 25: live addresses come back Unknown and free, and the app says
// on every screen what that means and what to do, readable in light and dark.
import { AxeBuilder } from '@axe-core/playwright';
import { startMailWorld, type MailWorld } from '../support/mail-world.ts';
import { startHostedService, useHostedService, type HostedService } from './hosted-service.ts';
import { cleanCsv, expect, startHost, test } from './web-host-fixture.ts';

let world: MailWorld;
let hosted: HostedService;

test.beforeAll(async () => {
  // Three unrelated domains whose mail hosts never answer: what a blocked port 25 looks like.
  world = await startMailWorld({
    hosts: {
      'mx.one.test': { ip: '127.0.0.2', greeting: 'silent' },
      'mx.two.test': { ip: '127.0.0.3', greeting: 'closed' },
      'mx.three.test': { ip: '127.0.0.4', greeting: 'silent' },
    },
    domains: {
      'one.test': { mx: ['mx.one.test'] },
      'two.test': { mx: ['mx.two.test'] },
      'three.test': { mx: ['mx.three.test'] },
    },
  });
  hosted = await startHostedService(world);
});

test.afterAll(async () => {
  await hosted?.stop();
  await world?.close();
});

test('live checks on a network that blocks port 25 are unknown, free, and explained', async ({ page }) => {
  // An app of its own: the shared one may already be set up for another service.
  const app = await startHost();
  try {
    await blockedFlow(page, app.url);
  } finally {
    app.child.kill('SIGTERM');
  }
});

async function blockedFlow(page: import('@playwright/test').Page, url: string) {
  await page.goto(url);
  await useHostedService(page, hosted);
  await expect(page.getByTestId('account-badge')).toHaveText('Live · 1,000 credits · 100 free');
  await expect(page.getByTestId('port25-banner')).toHaveCount(0);

  await page.getByTestId('nav-clean').click();
  await cleanCsv(page, 'blocked.csv', 'email\nann@one.test\nbo@two.test\ncy@three.test\n', 30_000);
  await expect(page.getByTestId('summary-billed')).toContainText('0');
  const banner = page.getByTestId('port25-banner');
  await expect(banner).toContainText('Live checks cannot reach mail servers from this network');
  await expect(banner).toContainText('run sift service on a server that may connect out on port 25');
  await expect(page.getByTestId('account-badge')).toHaveText('Live · 1,000 credits · 100 free');
  // Each row says why in words.
  await expect(page.getByText('Your network blocks connections to mail servers (port 25)').first()).toBeVisible();
  for (const colorScheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme });
    await page.screenshot({ path: `test-results/screens/port25-${colorScheme}.png`, fullPage: true });
    const { violations } = await new AxeBuilder({ page }).include('[data-testid="port25-banner"]').analyze();
    expect(violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')).toEqual([]);
  }
  // The banner follows to other screens, and its button opens Settings.
  await page.getByTestId('nav-history').click();
  await expect(banner).toBeVisible();
  await banner.getByRole('button', { name: 'Open Settings' }).click();
  await expect(page.getByRole('heading', { name: 'Settings' })).toBeFocused();
}
