// The first start: the app asks how addresses are checked, and each answer leads where it says. On this
// computer (behind a network that blocks port 25, here a mail world that answers only a proxy's egress)
// it tries port 25 then and there, directly and through the proxy, and names what it found; your own Sift
// server and a hosted service are reached by URL and key; the demo's verdicts never claim a server was asked.
import { readFileSync } from 'node:fs';
import { AxeBuilder } from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { startMailWorld, type MailWorld } from '../support/mail-world.ts';
import { startSocks5Server, type Socks5Server } from '../support/socks5-server.ts';
import { startHostedService, type HostedService } from './hosted-service.ts';
import { expect, startHost, test } from './web-host-fixture.ts';

const egress = '127.0.0.9';
const proxyPassword = 'pr0xy-S3cret';
let world: MailWorld;
let proxy: Socks5Server;
let hosted: HostedService;

test.beforeAll(async () => {
  world = await startMailWorld({
    hosts: {
      // The big providers' hosts that the port-25 test asks, and a shop's own mail server.
      'gmail-smtp-in.l.google.com': { ip: '127.0.0.5' },
      'outlook-com.olc.protection.outlook.com': { ip: '127.0.0.6' },
      'mta5.am0.yahoodns.net': { ip: '127.0.0.7' },
      'mx.shop.test': { ip: '127.0.0.8', mailboxes: { ann: 'accept', cy: 'accept' }, others: 'reject' },
      // Names a HELO may be: one whose address points back to it, one whose address has another name.
      'probe.sift.test': { ip: '127.0.0.10', greeting: 'closed' },
      'laptop.sift.test': { ip: '127.0.0.11', greeting: 'closed', ptr: 'dsl-11.isp.example' },
    },
    domains: {
      'gmail.com': { mx: ['gmail-smtp-in.l.google.com'] },
      'outlook.com': { mx: ['outlook-com.olc.protection.outlook.com'] },
      'yahoo.com': { mx: ['mta5.am0.yahoodns.net'] },
      'shop.test': { mx: ['mx.shop.test'] },
    },
  });
  proxy = await startSocks5Server({ egress, user: 'sift', password: proxyPassword });
  hosted = await startHostedService(world);
});

test.afterAll(async () => {
  await hosted?.stop();
  await proxy?.kill();
  await world?.close();
});

/** Four probes a second per mail server: a list of thirty takes long enough to watch its time left. */
const engineArgs = () => [
  '--resolver',
  world.resolver,
  '--smtp-port',
  String(world.smtpPort),
  '--smtp-timeout',
  '2',
  '--per-host-rate',
  '4',
];

/** A first start of its own, with the live engine pointed at the mail world. */
async function firstStart(run: (page: Page) => Promise<void>, page: Page) {
  const app = await startHost(undefined, { firstRun: true, args: engineArgs() });
  try {
    await page.goto(app.url);
    await expect(page.getByRole('heading', { name: 'How should Sift check addresses?' })).toBeVisible();
    await run(page);
  } finally {
    app.child.kill('SIGTERM');
  }
}

test('on this computer: port 25 is tried then and there, directly and through a proxy, and lists are checked for real', async ({
  page,
}) => {
  test.setTimeout(60_000);
  // The network blocks port 25: mail servers answer only the proxy's outgoing address.
  world.acceptOnlyFrom([egress], { firewall: true });
  const answers: string[] = [];
  page.on('response', async (response) => {
    if (!response.url().includes('/api/events')) answers.push(await response.text().catch(() => ''));
  });
  await firstStart(async () => {
    for (const colorScheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme });
      await page.screenshot({ path: `test-results/screens/first-run-${colorScheme}.png`, fullPage: true });
      const { violations } = await new AxeBuilder({ page }).include('.setup').analyze();
      expect(violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')).toEqual([]);
    }
    await page.emulateMedia({ colorScheme: 'light' });

    await page.getByLabel(/On this computer/).check();
    await page.getByRole('button', { name: 'Test port 25 now' }).click();
    const found = page.getByTestId('live-check-test');
    await expect(found).toContainText(`From this computer: port ${world.smtpPort} is blocked`, { timeout: 15_000 });
    await expect(found).toContainText('would come back Unknown');

    await page.getByRole('button', { name: 'Add a proxy' }).click();
    await page.getByLabel('Proxy 1', { exact: true }).fill(proxy.url.replace(`:${proxyPassword}`, ''));
    await page.getByLabel('Password', { exact: true }).fill(proxyPassword);
    await page.getByRole('button', { name: 'Test port 25 now' }).click();
    await expect(found).toContainText(`Proxy ${proxy.label}: works`, { timeout: 15_000 });
    await expect(found).toContainText('Live checks from this computer will reach mail servers.');
    for (const colorScheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme });
      await page.screenshot({ path: `test-results/screens/first-run-proxy-${colorScheme}.png`, fullPage: true });
    }
    await page.emulateMedia({ colorScheme: 'light' });
    await page.getByRole('button', { name: 'Check on this computer' }).click();

    // Where it said: the list screen, with live checks on this computer.
    await expect(page.getByRole('heading', { name: 'Drop a CSV list here' })).toBeVisible();
    await expect(page.getByTestId('account-badge')).toContainText('Live');
    const relayedBefore = proxy.relayed.length;
    const others = Array.from({ length: 27 }, (_, i) => `p${i}@shop.test`);
    await page.getByTestId('file-input').setInputFiles({
      name: 'shop.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from(['email', 'ann@shop.test', 'bob@shop.test', 'cy@shop.test', ...others, ''].join('\n')),
    });
    await expect(page.getByTestId('cost')).not.toContainText('demo');
    await page.getByTestId('start-button').click();
    // The time left is the politeness bound, and says where it goes.
    await expect(page.getByTestId('progress-timing')).toContainText(
      /at a polite pace; most of it \d+ addresses at mx\.shop\.test/,
      { timeout: 15_000 },
    );
    await page.screenshot({ path: 'test-results/screens/live-progress.png', fullPage: true });
    await expect(page.getByTestId('result-status')).toHaveText('Done: 30 addresses checked from 30 rows.', {
      timeout: 30_000,
    });
    await expect(page.getByTestId('summary-valid')).toContainText('2');
    await expect(page.getByTestId('summary-invalid')).toContainText('28');
    await expect(page.getByTestId('demo-notice')).toHaveCount(0);
    // Every conversation went out through the proxy, and the server heard it from the proxy's address.
    expect(proxy.relayed.length).toBeGreaterThan(relayedBefore);
    const rcpts = world.logs['mx.shop.test']!.rcpts;
    expect(rcpts.map((rcpt) => rcpt.address)).toEqual(expect.arrayContaining(['ann@shop.test', 'bob@shop.test']));
    expect(rcpts.every((rcpt) => rcpt.from === egress)).toBe(true);

    // Settings says so; the proxy is shown with its password masked, and the password never reached the page.
    await page.getByTestId('nav-settings').click();
    await expect(page.getByTestId('current-service')).toContainText('Now: on this computer.');
    await page.getByTestId('nav-service').click();
    await expect(page.getByLabel('Proxy 1', { exact: true })).toHaveValue(proxy.url.replace(`:${proxyPassword}`, ''));
    await expect(page.getByLabel('Password (saved)', { exact: true })).toHaveValue('');
    expect(answers.join('\n')).not.toContain(proxyPassword);
  }, page);
  world.acceptOnlyFrom(undefined);
});

test('your own Sift server and a hosted service are reached by URL and key; the demo is labelled everywhere', async ({
  page,
}) => {
  test.setTimeout(60_000);
  await firstStart(async () => {
    await page.getByLabel(/On your own Sift server/).check();
    await expect(page.getByText('npx sift service keys create --live')).toBeVisible();
    await page.getByLabel('Server URL').fill(hosted.baseUrl);
    await page.getByLabel('API key').fill(hosted.liveKey);
    await page.getByRole('button', { name: 'Save and use this service' }).click();
    await expect(page.getByRole('heading', { name: 'Drop a CSV list here' })).toBeVisible();
    await expect(page.getByTestId('account-badge')).toContainText('Live · 1,000 credits');

    // From Settings the question comes back; a hosted service is the same form under its own name.
    await page.getByTestId('nav-settings').click();
    await page.getByRole('button', { name: 'Change how addresses are checked' }).click();
    await expect(page.getByLabel(/On a hosted service/)).toBeChecked();
    await expect(page.getByLabel('Service URL')).toHaveValue(hosted.baseUrl);

    await page.getByLabel(/A demo/).check();
    await page.getByRole('button', { name: 'Use the demo' }).click();
    await expect(page.getByTestId('account-badge')).toHaveText('Demo (sandbox key)');
    await page.getByTestId('file-input').setInputFiles({
      name: 'trial.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from(
        'email\nvalid.ann@example.com\ninvalid.bo@example.com\ncatchall.cy@example.net\nnot-an-address\n',
      ),
    });
    await expect(page.getByTestId('cost')).toContainText('demo verdicts');
    await page.getByTestId('start-button').click();
    await expect(page.getByTestId('result-status')).toContainText('demo verdicts', { timeout: 20_000 });
    await expect(page.getByTestId('demo-notice')).toBeVisible();
    await page.getByTestId('export-button').click();
    await expect(page.getByTestId('download-cleaned')).toBeVisible();
    for (const colorScheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme });
      await page.screenshot({ path: `test-results/screens/demo-results-${colorScheme}.png`, fullPage: true });
    }

    // Nothing on screen or in the files claims that a mail server was asked.
    const claims =
      /The mail server (accepts|says|kept|was|refused|gave|hung)|addresses checked|accepted_email\b(?<!demo:accepted_email)/;
    expect(await page.locator('body').innerText()).not.toMatch(claims);
    for (const kind of ['cleaned', 'annotated', 'summary'] as const) {
      const download = page.waitForEvent('download');
      await page.getByTestId(`download-${kind}`).click();
      const file = await download;
      expect(file.suggestedFilename()).toBe(`trial.demo.${kind}.${kind === 'summary' ? 'json' : 'csv'}`);
      const text = readFileSync((await file.path())!, 'utf8');
      expect(text).not.toMatch(/(^|,)accepted_email|mail server (accepts|answered)/);
      if (kind === 'annotated') expect(text).toContain(',demo:accepted_email,');
      if (kind === 'summary') expect(JSON.parse(text)).toMatchObject({ demo: true });
    }
  }, page);
});

test('on this computer: asks for the HELO name and MAIL FROM there, says what DNS finds, and saves them', async ({
  page,
}) => {
  test.setTimeout(60_000);
  await firstStart(async () => {
    await page.getByLabel(/On this computer/).check();
    const helo = page.getByLabel('HELO name');
    const mailFrom = page.getByLabel('MAIL FROM address');
    // Filled from what is set (here the defaults: this computer's name), each explained in a line.
    await expect(helo).not.toHaveValue('');
    await expect(mailFrom).toHaveValue(/^verify@/);
    await expect(page.getByText('The name Sift gives each mail server when it says hello.')).toBeVisible();
    const dns = page.getByTestId('helo-dns');

    await helo.fill('laptop.sift.test');
    await helo.blur();
    await expect(dns).toHaveText(
      'laptop.sift.test resolves to 127.0.0.11, but 127.0.0.11 resolves back to dsl-11.isp.example: ' +
        'some mail servers refuse a sender whose name and address disagree.',
    );
    await helo.fill('probe.sift.test');
    await helo.blur();
    await expect(dns).toHaveText(
      'probe.sift.test resolves to 127.0.0.10, and 127.0.0.10 resolves back to probe.sift.test: ' +
        'servers that check the name will find it.',
    );
    await mailFrom.fill('bounces@sift.test');
    for (const colorScheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme });
      await page.screenshot({ path: `test-results/screens/first-run-sender-${colorScheme}.png`, fullPage: true });
      const { violations } = await new AxeBuilder({ page }).include('.setup').analyze();
      expect(violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')).toEqual([]);
    }
    await page.emulateMedia({ colorScheme: 'light' });
    await page.getByRole('button', { name: 'Check on this computer' }).click();
    await expect(page.getByRole('heading', { name: 'Drop a CSV list here' })).toBeVisible();

    // Saved: Sift's service ▸ Live checks shows the same sender.
    await page.getByTestId('nav-service').click();
    await expect(page.getByLabel(/^HELO name/)).toHaveValue('probe.sift.test');
    await expect(page.getByLabel(/^MAIL FROM address/)).toHaveValue('bounces@sift.test');
  }, page);
});
