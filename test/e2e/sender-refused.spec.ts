// A service whose sending address mail servers refuse (three unrelated sites name a blocklist): live
// addresses come back Unknown and free, and the app says on every screen what that means, what to do and
// where the blocklist takes removal requests; readable in light and dark.
import { AxeBuilder } from '@axe-core/playwright';
import { startMailWorld, type MailWorld } from '../support/mail-world.ts';
import { startHostedService, useHostedService, type HostedService } from './hosted-service.ts';
import { cleanCsv, expect, startHost, test } from './web-host-fixture.ts';

let world: MailWorld;
let hosted: HostedService;
const listed = { code: 554, text: '5.7.1 Service unavailable; Client host [127.0.0.1] blocked using zen.spamhaus.org' };

test.beforeAll(async () => {
  const sites = ['one', 'two', 'three'];
  world = await startMailWorld({
    hosts: Object.fromEntries(
      sites.map((site, i) => [
        `mx.${site}.test`,
        { ip: `127.0.0.${12 + i}`, others: 'accept' as const, refuseClient: listed },
      ]),
    ),
    domains: Object.fromEntries(sites.map((site) => [`${site}.test`, { mx: [`mx.${site}.test`] }])),
  });
  hosted = await startHostedService(world);
});

test.afterAll(async () => {
  await hosted?.stop();
  await world?.close();
});

test('a refused sending address is named, with what to do, and its rows are unknown and free', async ({ page }) => {
  test.setTimeout(60_000);
  const app = await startHost();
  try {
    await page.goto(app.url);
    await useHostedService(page, hosted);
    await expect(page.getByTestId('account-badge')).toContainText('Live');
    await expect(page.getByTestId('sender-banner')).toHaveCount(0);

    await page.getByTestId('nav-clean').click();
    await cleanCsv(page, 'refused.csv', 'email\nann@one.test\nbo@two.test\ncy@three.test\n', 30_000);
    await expect(page.getByTestId('summary-unknown')).toContainText('3');
    await expect(page.getByTestId('summary-billed')).toContainText('0');
    const banner = page.getByTestId('sender-banner');
    await expect(banner).toContainText('Mail servers refuse this service’s sending address.');
    await expect(banner).toContainText('Servers of 3 unrelated domains');
    await expect(banner).toContainText('blocked using zen.spamhaus.org');
    await expect(banner).toContainText(
      'The refusal names Spamhaus: ask for the address to be removed at https://check.spamhaus.org/',
    );
    // The results say why they are unknown, each reason in a sentence, and count what the refusal left unknown.
    await expect(page.getByTestId('sender-refused-count')).toContainText(
      "3 unknown addresses were left unknown because mail servers refused Sift's checking address",
    );
    await expect(page.getByTestId('unknown-reasons')).toContainText(
      "The mail server refused Sift's checking address (it is on a blocklist); this says nothing about the address.",
    );
    for (const colorScheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme });
      await page.screenshot({ path: `test-results/screens/sender-refused-${colorScheme}.png`, fullPage: true });
      const { violations } = await new AxeBuilder({ page })
        .include('[data-testid="sender-banner"]')
        .include('[data-testid="breakdown"]')
        .analyze();
      expect(violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')).toEqual([]);
    }
    // It follows to other screens.
    await page.getByTestId('nav-history').click();
    await expect(banner).toBeVisible();
  } finally {
    app.child.kill('SIGTERM');
  }
});
