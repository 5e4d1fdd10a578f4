// Canceling a list while its live checks wait on a greylisting server: the button says "Canceling…" at
// once, what was checked is kept, and "Check the 2 not checked" finishes the list later with no address
// checked twice.
import { startMailWorld, type MailWorld } from '../support/mail-world.ts';
import { startHostedService, useHostedService, type HostedService } from './hosted-service.ts';
import { expect, startHost, test } from './web-host-fixture.ts';

const minute = 60_000;
let world: MailWorld;
let hosted: HostedService;
/** The mail server's clock: moved on once the list is canceled, so the greylisted boxes accept on the retry. */
let offset = 0;

test.beforeAll(async () => {
  world = await startMailWorld({
    now: () => Date.now() + offset,
    hosts: {
      'mx.slow.test': {
        ip: '127.0.0.2',
        mailboxes: { ann: 'accept', bo: 'accept', cy: 'accept', gina: 'greylist', gus: 'greylist' },
        greylistMs: 5 * minute,
      },
    },
    domains: { 'slow.test': { mx: ['mx.slow.test'] } },
  });
  // Greylisted addresses wait the real five minutes: the list is still running when Cancel is clicked.
  hosted = await startHostedService(world, ['--greylist-retry', '5,10']);
});

test.afterAll(async () => {
  await hosted?.stop();
  await world?.close();
});

test('Cancel says "Canceling…", keeps what was checked, and Retry checks only the rest', async ({ page }) => {
  const app = await startHost();
  try {
    await page.goto(app.url);
    await useHostedService(page, hosted);
    await expect(page.getByTestId('account-badge')).toHaveText('Live · 1,000 credits · 100 free');

    await page.getByTestId('nav-clean').click();
    await page.getByTestId('file-input').setInputFiles({
      name: 'slow.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from('email\nann@slow.test\nbo@slow.test\ncy@slow.test\ngina@slow.test\ngus@slow.test\n'),
    });
    await page.getByTestId('start-button').click();
    const progress = page.getByTestId('progress-text');
    await expect(progress).toContainText('3 of 5 addresses', { timeout: 30_000 });

    // Every text the progress card shows is recorded, so a "Canceling…" that lasts one frame is seen too.
    await page.evaluate(() => {
      const seen: string[] = [];
      (window as unknown as { progressTexts: string[] }).progressTexts = seen;
      new MutationObserver(() => {
        const text = document.querySelector('[data-testid="progress-text"]')?.textContent;
        if (text && seen.at(-1) !== text) seen.push(text);
      }).observe(document.body, { subtree: true, childList: true, characterData: true });
    });
    await page.getByRole('button', { name: 'Cancel (keeps what was checked)' }).click();
    const status = page.getByTestId('result-status');
    await expect(status).toContainText('Canceled', { timeout: 15_000 });
    const texts = await page.evaluate(() => (window as unknown as { progressTexts: string[] }).progressTexts);
    expect(texts).toContain('Canceling… what was checked so far is kept.');
    await expect(status).toContainText('2 addresses were not checked');
    await expect(page.getByTestId('summary-valid')).toContainText('3');
    await expect(page.getByTestId('funnel')).toContainText('To check 5');
    await page.screenshot({ path: 'test-results/screens/canceled.png', fullPage: true });

    // Later, the greylisting server lets the two through: Retry checks only those two.
    offset += 6 * minute;
    const rcptsBefore = world.logs['mx.slow.test']!.rcpts.map((rcpt) => rcpt.address);
    await page.getByTestId('retry').click();
    await expect(status).toContainText('Done: 5 addresses checked from 5 rows', { timeout: 30_000 });
    await expect(page.getByTestId('summary-valid')).toContainText('5');
    await expect(page.getByTestId('summary-billed')).toContainText('5');
    await expect(page.getByTestId('funnel')).toContainText('Checked 5');
    const asked = world.logs['mx.slow.test']!.rcpts.slice(rcptsBefore.length).map((rcpt) => rcpt.address);
    expect(asked.filter((address) => !address.startsWith('sift-')).sort()).toEqual(['gina@slow.test', 'gus@slow.test']);
    await expect(page.getByTestId('account-badge')).toContainText('95 free');
  } finally {
    app.child.kill('SIGTERM');
  }
});
