// The app in a real browser against the real main-process code (web host + embedded service):
// drop a list, review the pre-check and cost, clean it, and download the cleaned file.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFileSync } from 'node:fs';
import { cleanCsv, expect, test } from './web-host-fixture.ts';

const contacts = new URL('../fixtures/contacts.csv', import.meta.url).pathname;
const newsletter = new URL('../fixtures/newsletter.csv', import.meta.url).pathname;

test('a dropped list is reviewed, cleaned and exported', async ({ page, hostUrl }) => {
  // A CSP violation or a script error shows up here, so the strict policy is checked in a real browser.
  const problems: string[] = [];
  page.on('console', (message) => message.type() === 'error' && problems.push(message.text()));
  page.on('pageerror', (error) => problems.push(error.message));
  await page.goto(hostUrl);
  await expect(page.getByRole('heading', { name: 'Drop a CSV list here' })).toBeVisible();
  await expect(page.getByText(/Sift \d+\.\d+\.\d+ · browser/)).toBeVisible();
  await page.screenshot({ path: 'test-results/screens/drop-zone.png' });

  await page.getByTestId('file-input').setInputFiles(newsletter);
  await expect(page.getByTestId('job-file-name')).toHaveText('newsletter.csv');
  await expect(page.getByTestId('column-select')).toHaveValue('3');
  await expect(page.getByTestId('column-select').locator('option:checked')).toHaveText('Email Address');
  await expect(page.getByTestId('precheck-rows')).toContainText('10');
  await expect(page.getByTestId('precheck-to-check')).toContainText('7');
  await expect(page.getByTestId('precheck-duplicates')).toContainText('1');
  await expect(page.getByTestId('precheck-bad-syntax')).toContainText('1');
  await expect(page.getByTestId('precheck-no-address')).toContainText('1');
  await expect(page.getByTestId('precheck-typos')).toContainText('1');
  await expect(page.getByTestId('cost')).toHaveText(
    "7 demo verdicts from Sift's own service with a sandbox key: scripted, no mail server is asked, no credits are spent.",
  );
  await expect(page.getByTestId('preview-table').locator('thead th.is-email')).toHaveText('Email Address');
  await page.screenshot({ path: 'test-results/screens/review.png', fullPage: true });

  await page.getByTestId('start-button').click();
  // The results screen counts the same funnel the review screen did.
  await expect(page.getByTestId('result-status')).toHaveText(
    'Done: demo verdicts for 7 addresses from 10 rows. No mail server was asked.',
    {
      timeout: 20_000,
    },
  );
  await expect(page.getByTestId('summary-valid')).toContainText('3');
  await expect(page.getByTestId('summary-duplicates')).toContainText('1');
  await expect(page.getByTestId('summary-bad-syntax')).toContainText('1');
  await expect(page.getByTestId('funnel')).toHaveText(
    ['Rows 10', 'No address 1', 'Bad syntax 1', 'Duplicates 1', 'Demo verdicts 7'].join(''),
  );
  await expect(page.getByRole('table', { name: 'Demo verdicts of the 7 addresses' })).toContainText('Valid342.9%');
  await expect(page.getByRole('table', { name: 'Mailbox providers' })).toContainText('Other');
  await expect(page.getByRole('table', { name: 'Most used domains' })).toContainText('example.com');
  await expect(page.getByTestId('summary-no-address')).toContainText('1');
  await expect(page.getByTestId('summary-billed')).toContainText('0');
  await page.getByLabel('Catch-all', { exact: true }).check();
  await page.getByTestId('export-button').click();
  await expect(page.getByTestId('download-cleaned')).toBeVisible();
  await page.screenshot({ path: 'test-results/screens/results.png', fullPage: true });

  const download = page.waitForEvent('download');
  await page.getByTestId('download-cleaned').click();
  const file = await download;
  expect(file.suggestedFilename()).toBe('newsletter.demo.cleaned.csv');
  const cleaned = readFileSync((await file.path())!, 'utf8');
  expect(cleaned.split('\r\n').filter(Boolean)).toEqual([
    '\uFEFFFirst Name,Last Name,Email Address,Signed Up,Notes',
    // The cleaned list is for re-import: cells as they were (formulas are guarded in the annotated copy).
    `Ann,Lee,valid.ann@example.com,2024-03-01,"=HYPERLINK(""x"")"`,
    'Carla,Mendes,catchall.carla@example.net,2024-03-09,',
    'Eve,Stone,valid.eve@gamil.com,2024-04-03,',
  ]);

  // One file per verdict: each holds as many rows as the screen says.
  await page.getByLabel(/one file per verdict/).check();
  await expect(page.getByTestId('download-cleaned')).toBeHidden();
  await page.getByTestId('export-button').click();
  for (const [kind, card] of [
    ['valid', 'summary-valid'],
    ['invalid', 'summary-invalid'],
    ['catch_all', 'summary-catch-all'],
    ['unknown', 'summary-unknown'],
    ['disposable', 'summary-disposable'],
  ] as const) {
    const shown = Number((await page.getByTestId(card).locator('dd').textContent())!.replace(/\D/g, ''));
    const fileDownload = page.waitForEvent('download');
    await page.getByTestId(`download-${kind}`).click();
    const text = readFileSync((await (await fileDownload).path())!, 'utf8');
    expect(text.split('\r\n').filter(Boolean).length - 1, kind).toBe(shown);
  }
  expect(problems).toEqual([]);
});

test('a list can be picked up again after the window reloads', async ({ page, hostUrl }) => {
  await page.goto(hostUrl);
  await page.getByTestId('file-input').setInputFiles({
    name: 'reopened.csv',
    mimeType: 'text/csv',
    buffer: Buffer.from('email\nvalid.a@example.com\nvalid.b@example.com\n'),
  });
  await expect(page.getByTestId('cost')).toContainText('2 demo verdicts');
  await page.reload();
  const recent = page.getByTestId('recent-jobs').getByRole('button', { name: /reopened\.csv/ });
  await expect(recent).toContainText('Ready to clean');
  await page.screenshot({ path: 'test-results/screens/recent-lists.png' });
  await recent.click();
  await expect(page.getByTestId('cost')).toContainText('2 demo verdicts');
  await page.getByTestId('start-button').click();
  await expect(page.getByTestId('summary-valid')).toContainText('2', { timeout: 20_000 });
  await page.getByRole('button', { name: 'Clean another list' }).click();
  await expect(page.getByTestId('recent-jobs').getByRole('button', { name: /reopened\.csv/ })).toContainText('Done');
});

test('choosing another email column reads the list again', async ({ page, hostUrl }) => {
  await page.goto(hostUrl);
  await page.getByTestId('file-input').setInputFiles(contacts);
  await expect(page.getByTestId('column-select')).toHaveValue('1');
  await page.getByTestId('column-select').selectOption('2');
  await page.getByRole('button', { name: 'Use this column' }).click();
  await expect(page.getByTestId('cost')).toHaveText('Nothing to check: every row was settled locally.');
  await expect(page.getByTestId('precheck-bad-syntax')).toContainText('4');
});

test('dropping a file on the drop zone reads it', async ({ page, hostUrl }) => {
  await page.goto(hostUrl);
  const csv = readFileSync(contacts, 'utf8');
  const dataTransfer = await page.evaluateHandle((text) => {
    const transfer = new DataTransfer();
    transfer.items.add(new File([text], 'dropped.csv', { type: 'text/csv' }));
    return transfer;
  }, csv);
  await page.getByTestId('drop-zone').dispatchEvent('drop', { dataTransfer });
  await expect(page.getByTestId('job-file-name')).toHaveText('dropped.csv');
  await expect(page.getByTestId('preview-table').locator('tbody tr')).toHaveCount(5);
});

test('an empty file gets a clear error and the drop zone stays', async ({ page, hostUrl }) => {
  await page.goto(hostUrl);
  await page
    .getByTestId('file-input')
    .setInputFiles({ name: 'empty.csv', mimeType: 'text/csv', buffer: Buffer.alloc(0) });
  await expect(page.getByRole('alert')).toHaveText('Could not open empty.csv. "empty.csv" is empty.');
  await expect(page.getByTestId('drop-zone')).toBeVisible();
  await page.screenshot({ path: 'test-results/screens/empty-file-error.png' });
});

test('the page opens nothing and downloads refuse without the run token', async ({ page, hostUrl }) => {
  const origin = new URL(hostUrl).origin;
  await page.goto(`${origin}/`);
  await expect(page.getByText('Open Sift with the link it printed')).toBeVisible();
  await expect(page.getByTestId('drop-zone')).toHaveCount(0);
  const download = await page.request.get(`${origin}/downloads/job_0000000000000000/x.cleaned.csv`);
  expect(download.status()).toBe(401);
});

test('another local site the same browser visits after Sift receives no Sift credential', async ({ page, hostUrl }) => {
  // A developer's localhost:3000, another tool's UI: any server on another loopback port.
  const seen: Record<string, string | undefined>[] = [];
  const other = createServer((request, response) => {
    seen.push({ cookie: request.headers.cookie, token: request.headers['x-sift-token'] as string | undefined });
    response.writeHead(200, { 'content-type': 'text/html' }).end('<title>another site</title>');
  });
  await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve));
  try {
    await page.goto(hostUrl);
    await expect(page.getByTestId('drop-zone')).toBeVisible();
    expect(await page.evaluate(() => document.cookie)).toBe('');
    const token = new URL(hostUrl).searchParams.get('token')!;
    for (const host of ['127.0.0.1', 'localhost']) {
      await page.goto(`http://${host}:${(other.address() as AddressInfo).port}/`);
      await expect(page).toHaveTitle('another site');
    }
    expect(seen.length).toBe(2);
    for (const request of seen) {
      expect(request.token).toBeUndefined();
      expect(request.cookie ?? '').not.toContain(token);
    }
    expect((await page.context().cookies()).filter((cookie) => cookie.value.includes(token))).toEqual([]);
  } finally {
    await new Promise<void>((resolve) => other.close(() => resolve()));
  }
});

test('the token leaves the address bar once the page has it, and a reload and a download still work', async ({
  page,
  hostUrl,
}) => {
  await page.goto(hostUrl);
  await expect(page.getByTestId('drop-zone')).toBeVisible();
  expect(page.url()).toBe(`${new URL(hostUrl).origin}/`);
  await page.reload();
  await expect(page.getByTestId('drop-zone')).toBeVisible();
  expect(page.url()).not.toContain('token');
  await cleanCsv(page, 'session.csv', 'email\nvalid.one@example.com\n');
  await page.getByTestId('export-button').click();
  // The download link carries no token: a ticket for that file, asked for at the click, spent by it.
  expect(await page.getByTestId('download-cleaned').getAttribute('href')).not.toContain('token');
  const download = page.waitForEvent('download');
  await page.getByTestId('download-cleaned').click();
  const downloaded = await download;
  expect(await downloaded.failure()).toBeNull();
  expect(downloaded.url()).toMatch(/\/downloads\/job_[0-9a-f]{16}\/session\.demo\.cleaned\.csv\?ticket=/);
  expect(downloaded.url()).not.toContain(new URL(hostUrl).searchParams.get('token')!);
  // Spent: the same link downloads nothing again.
  expect((await page.request.get(downloaded.url())).status()).toBe(401);
});
