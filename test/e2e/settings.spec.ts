// The app against a hosted service: a second `sift service` on loopback (its live checks asking a mail
// server on loopback), a live key made with its dashboard commands, entered in Settings; the connection
// test, a list cleaned there, the badge; then every network answer, event, the DOM and the browser's
// storage are searched for the key.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startMailWorld, type MailWorld } from '../support/mail-world.ts';
import { startHostedService, type HostedService } from './hosted-service.ts';
import { recordServerEvents, serverEvents } from './event-log.ts';
import { expect, startHost, stopChild, test } from './web-host-fixture.ts';

let world: MailWorld;
let hosted: HostedService;
let baseUrl: string;
let liveKey: string;

test.beforeAll(async () => {
  // The hosted service checks live addresses at example.com's mail server, which is on loopback here.
  world = await startMailWorld({
    hosts: {
      'mx.example.com': {
        ip: '127.0.0.2',
        mailboxes: { 'valid.a': 'accept', 'valid.b': 'accept', 'valid.now': 'accept' },
      },
    },
    domains: { 'example.com': { mx: ['mx.example.com'] } },
  });
  hosted = await startHostedService(world);
  ({ baseUrl, liveKey } = hosted);
});

test.afterAll(async () => {
  await hosted?.stop();
  await world?.close();
});

test('a hosted service is tested, saved and used, and its key never reaches the page', async ({ page, hostUrl }) => {
  const answers: string[] = [];
  page.on('response', async (response) => {
    // The event stream never ends: its text is read from the page's own log of events below.
    if (!response.url().includes('/api/events')) answers.push(await response.text().catch(() => ''));
  });
  // Every server-sent event the page hears is kept where the test can read it (a copy of the stream).
  await recordServerEvents(page);
  await page.goto(hostUrl);
  await expect(page.getByTestId('account-badge')).toHaveText('Demo (sandbox key)');
  await page.getByTestId('nav-settings').click();
  await expect(page.getByRole('heading', { name: 'Settings' })).toBeFocused();

  await page.getByLabel('Service URL').fill(baseUrl);
  await page.getByLabel('API key').fill('svc_live_notTheRightKey00000000000');
  await page.getByRole('button', { name: 'Test connection' }).click();
  await expect(page.getByTestId('connection-test')).toContainText('wrong, or it has been revoked');
  await page.getByLabel('Service URL').fill('http://127.0.0.1:9/v1');
  await page.getByLabel('API key').fill(liveKey);
  await page.getByRole('button', { name: 'Test connection' }).click();
  await expect(page.getByTestId('connection-test')).toBeVisible();
  await expect(page.getByTestId('connection-test')).not.toContainText('Connected');

  await page.getByLabel('Service URL').fill(baseUrl);
  await page.getByRole('button', { name: 'Test connection' }).click();
  await expect(page.getByTestId('connection-test')).toContainText(
    'Connected with a live key. Balance 1,000 credits. 100 free checks left this month.',
  );
  // Sift's own service (as hosted here) offers both shortcuts, and Settings says so.
  await expect(page.getByTestId('connection-supports')).toContainText('as one file per list');
  await expect(page.getByTestId('connection-supports')).toContainText('as one download per batch');
  await page.getByLabel('Name (optional)').fill('Team service');
  await page.getByRole('button', { name: 'Save and use this service' }).click();
  await expect(page.getByTestId('current-service')).toContainText('Now: Team service (live key svc_live_…');
  await expect(page.getByLabel('API key')).toHaveCount(0);
  await expect(page.getByTestId('account-badge')).toHaveText('Live · 1,000 credits · 100 free');
  for (const colorScheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme });
    await page.screenshot({ path: `test-results/screens/settings-${colorScheme}.png`, fullPage: true });
  }
  await page.emulateMedia({ colorScheme: 'light' });

  // A list cleaned now is checked and billed at the hosted service.
  await page.getByTestId('nav-clean').click();
  await page.getByTestId('file-input').setInputFiles({
    name: 'team.csv',
    mimeType: 'text/csv',
    buffer: Buffer.from('email\nvalid.a@example.com\nvalid.b@example.com\ninvalid.c@example.com\n'),
  });
  await expect(page.getByTestId('cost')).toContainText('3 checks, covered by 100 free checks left this month');
  await page.getByTestId('start-button').click();
  await expect(page.getByTestId('result-status')).toContainText('Done', { timeout: 20_000 });
  await expect(page.getByTestId('summary-billed')).toContainText('3');
  await expect(page.getByTestId('account-badge')).toHaveText('Live · 1,000 credits · 97 free');

  // One address now, at the hosted service; an address that cannot be one is answered without a call.
  await page.getByTestId('nav-check').click();
  await page.getByLabel('Email address').fill('valid.now@example.com');
  await page.getByRole('button', { name: 'Check', exact: true }).click();
  await expect(page.getByTestId('check-answer')).toContainText('valid.now@example.com: Valid');
  await expect(page.getByTestId('check-answer')).toContainText('One credit was spent.');
  await page.getByLabel('Email address').fill('not an address');
  await page.getByRole('button', { name: 'Check', exact: true }).click();
  await expect(page.getByTestId('check-answer')).toContainText('not an address: Invalid');
  await expect(page.getByTestId('check-answer')).toContainText('without asking the service: not charged');
  const recent = page.getByTestId('recent-checks').locator('li');
  await expect(recent.nth(0)).toContainText('not an address');
  await expect(recent.nth(1)).toContainText('valid.now@example.com');
  await expect(page.getByTestId('account-badge')).toHaveText('Live · 1,000 credits · 96 free');
  await page.screenshot({ path: 'test-results/screens/check.png', fullPage: true });

  // Nowhere the page can see: answers, events, the DOM, localStorage, IndexedDB.
  const events = await serverEvents(page);
  expect(events.some((event) => event.includes('jobs:didProgress'))).toBe(true);
  const storage = await page.evaluate(async () => {
    const databases = await indexedDB.databases();
    return JSON.stringify({ local: { ...localStorage }, session: { ...sessionStorage }, databases });
  });
  const dom = await page.content();
  for (const text of [...answers, ...events, storage, dom]) expect(text).not.toContain(liveKey);
  expect(answers.length).toBeGreaterThan(5);
});

test('settings and the key outlive a restart of the app', async ({ page }) => {
  const dataDir = mkdtempSync(join(tmpdir(), 'sift-restart-'));
  let host = await startHost(dataDir);
  try {
    await page.goto(host.url);
    await page.getByTestId('nav-settings').click();
    await page.getByLabel('Service URL').fill(baseUrl);
    await page.getByLabel('API key').fill(liveKey);
    await page.getByRole('button', { name: 'Save and use this service' }).click();
    await expect(page.getByTestId('account-badge')).toContainText('Live');
  } finally {
    await stopChild(host.child);
  }
  host = await startHost(dataDir);
  try {
    await page.goto(host.url);
    await expect(page.getByTestId('account-badge')).toContainText('Live ·');
    await page.getByTestId('nav-settings').click();
    await expect(page.getByTestId('current-service')).toContainText('live key svc_live_…');
    await expect(page.getByTestId('saved-key')).toBeVisible();
    await page.getByRole('button', { name: 'Test connection' }).click();
    await expect(page.getByTestId('connection-test')).toContainText('Connected with a live key.');
  } finally {
    host.child.kill('SIGTERM');
  }
});
