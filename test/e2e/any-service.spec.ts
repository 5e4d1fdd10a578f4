// The app against a service that follows the spec and none of Sift's own guesses (test/support/
// spec-peer.ts): Settings says how lists will go and come back, a list is sent in batches the service
// accepts and read page by page with its progress in batches and time left, each address reaches the
// service once, and the cleaned file is the one Sift's own service gives for the same list.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeMarketingList } from '../bench/marketing-list.ts';
import { runSift } from '../support/run-sift.ts';
import { startSpecPeer, type SpecPeer } from '../support/spec-peer.ts';
import type { Page } from '@playwright/test';
import { recordServerEvents, serverEvents } from './event-log.ts';
import { expect, startHost, test } from './web-host-fixture.ts';

const sandboxKey = 'svc_test_peerE2E0123456789abcdef';
let peer: SpecPeer;
let listPath: string;
let ownCleaned: Buffer;

test.beforeAll(async () => {
  // Batches of at most 60 addresses, each checked at 8 a second: the run takes long enough to watch.
  peer = await startSpecPeer({ apiKey: sandboxKey, maxBatch: 60, checksPerSecond: 8 });
  const folder = mkdtempSync(join(tmpdir(), 'sift-e2e-peer-'));
  listPath = join(folder, 'spring.csv');
  await writeMarketingList(listPath, 240);
  // The same list on Sift's own service (sandbox), from the CLI, for the file to compare with.
  const own = await runSift(['clean', listPath], { SIFT_DATA_DIR: join(folder, 'data') });
  expect(own.code, own.stderr).toBe(0);
  ownCleaned = readFileSync(join(folder, 'spring.demo.cleaned.csv'));
});

test.afterAll(async () => {
  await peer?.close();
});

test('a list is cleaned on a spec-only service, each address sent once, as on Sift’s own', async ({ page }) => {
  test.setTimeout(90_000);
  // A web host of its own: the service chosen here must not become the other tests' service.
  const host = await startHost();
  try {
    await cleanOnPeer(page, host.url);
  } finally {
    host.child.kill('SIGTERM');
  }
});

async function cleanOnPeer(page: Page, url: string) {
  // A copy of every server-sent event the page hears, for the progress it was told while parts were sent.
  await recordServerEvents(page);
  await page.goto(url);
  await page.getByTestId('nav-settings').click();
  await page.getByLabel('Service URL').fill(peer.baseUrl);
  await page.getByLabel('API key').fill(sandboxKey);
  await page.getByRole('button', { name: 'Test connection' }).click();
  const supports = page.getByTestId('connection-supports');
  await expect(supports).toContainText('Lists are sentas batches of up to 50,000 addresses');
  await expect(supports).toContainText('Results are readpage by page');
  await page.getByRole('button', { name: 'Save and use this service' }).click();
  for (const colorScheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme });
    await page.screenshot({ path: `test-results/screens/any-service-settings-${colorScheme}.png`, fullPage: true });
  }
  await page.emulateMedia({ colorScheme: 'light' });

  await page.getByTestId('nav-clean').click();
  await page.getByTestId('file-input').setInputFiles(listPath);
  await expect(page.getByTestId('cost')).toContainText(
    'demo verdicts from the hosted service with a sandbox key: scripted, no mail server is asked, no credits are spent.',
  );
  await page.getByTestId('start-button').click();
  // While it runs: how far reading has come, and once the pace is known, how long is left.
  await expect(page.getByTestId('progress-text')).toContainText(/Checking: \d+ of \d+ addresses/, { timeout: 20_000 });
  await expect(page.getByTestId('progress-timing')).toContainText('left', { timeout: 20_000 });
  await page.screenshot({ path: 'test-results/screens/any-service-progress.png', fullPage: true });
  await expect(page.getByTestId('result-status')).toContainText('Done', { timeout: 60_000 });

  const status = (await page.getByTestId('result-status').textContent()) ?? '';
  const toCheck = Number(/Done: demo verdicts for ([\d,]+) addresses/.exec(status)![1]!.replace(/,/g, ''));
  expect(peer.submissions.size).toBe(toCheck);
  expect([...peer.submissions.values()].every((times) => times === 1)).toBe(true);
  expect(Math.max(...peer.batches.map((batch) => batch.emails.length))).toBeLessThanOrEqual(60);
  expect(peer.calls.get('POST /files')).toBeUndefined();
  // While parts were sent, progress said how many of the batches there are had gone.
  const events = (await serverEvents(page)).join('');
  expect(events).toMatch(/"parts":\{"sent":\d+,"total":\d+\}/);

  await page.getByTestId('export-button').click();
  const download = page.waitForEvent('download');
  await page.getByTestId('download-cleaned').click();
  const cleaned = readFileSync((await (await download).path())!);
  expect(cleaned.equals(ownCleaned)).toBe(true);
}

test('a live key at a service that does not say its balance is never shown as having none', async ({ page }) => {
  const liveKey = 'svc_live_peerE2E0123456789abcdef';
  const live = await startSpecPeer({ apiKey: liveKey });
  const host = await startHost();
  try {
    await page.goto(host.url);
    await page.getByTestId('nav-settings').click();
    await page.getByLabel('Service URL').fill(live.baseUrl);
    await page.getByLabel('API key').fill(liveKey);
    await page.getByRole('button', { name: 'Test connection' }).click();
    await expect(page.getByTestId('connection-test')).toContainText('Connected with a live key.');
    await expect(page.getByTestId('connection-test')).not.toContainText('Balance');
    await page.getByRole('button', { name: 'Save and use this service' }).click();
    await expect(page.getByTestId('account-badge')).toHaveText('Live');
    await page.getByTestId('nav-clean').click();
    await page.getByTestId('file-input').setInputFiles(listPath);
    await expect(page.getByTestId('cost')).toContainText(
      'The service does not say its balance, so Sift cannot tell whether the account covers them.',
    );
  } finally {
    host.child.kill('SIGTERM');
    await live.close();
  }
});
