// The first screen in a real browser against the real main-process code: a CSV set on the drop
// zone travels file → web host → contract → renderer and shows as a preview table.
import { readFileSync } from 'node:fs';
import { expect, test } from './web-host-fixture.ts';

const fixture = new URL('../fixtures/contacts.csv', import.meta.url).pathname;

test('choosing a CSV shows its first rows', async ({ page, hostUrl }) => {
  // A CSP violation or a script error shows up here, so the strict policy is checked in a real browser.
  const problems: string[] = [];
  page.on('console', (message) => message.type() === 'error' && problems.push(message.text()));
  page.on('pageerror', (error) => problems.push(error.message));
  await page.goto(hostUrl);
  await expect(page.getByRole('heading', { name: 'Drop a CSV list here' })).toBeVisible();
  await expect(page.getByText(/Sift \d+\.\d+\.\d+ · browser/)).toBeVisible();
  await page.screenshot({ path: 'test-results/screens/drop-zone.png' });

  await page.getByTestId('file-input').setInputFiles(fixture);

  const table = page.getByTestId('preview-table');
  await expect(table).toBeVisible();
  await expect(page.getByTestId('preview-file-name')).toHaveText('contacts.csv');
  await expect(table.locator('thead th')).toHaveText(['#', 'Email Address', 'First Name', 'Last Name', 'Company', 'Signed Up']);
  await expect(table.locator('tbody tr')).toHaveCount(5);
  await expect(table.locator('tbody tr').nth(1).locator('td')).toHaveText(['2', 'bob@example.org', 'Bob', 'Smith, Jr.', 'Contoso', '2024-03-04']);
  await expect(page.getByText('comma separated · 5 columns · first 5 rows')).toBeVisible();
  // The push event came back over server-sent events.
  await expect(page.getByTestId('activity')).toHaveText('Opened contacts.csv (5 rows shown)');
  await page.screenshot({ path: 'test-results/screens/list-preview.png' });

  await page.getByRole('button', { name: 'Choose another file' }).click();
  await expect(page.getByTestId('drop-zone')).toBeVisible();
  expect(problems).toEqual([]);
});

test('dropping a file on the drop zone previews it', async ({ page, hostUrl }) => {
  await page.goto(hostUrl);
  const csv = readFileSync(fixture, 'utf8');
  const dataTransfer = await page.evaluateHandle((text) => {
    const transfer = new DataTransfer();
    transfer.items.add(new File([text], 'dropped.csv', { type: 'text/csv' }));
    return transfer;
  }, csv);
  await page.getByTestId('drop-zone').dispatchEvent('drop', { dataTransfer });
  await expect(page.getByTestId('preview-file-name')).toHaveText('dropped.csv');
  await expect(page.getByTestId('preview-table').locator('tbody tr')).toHaveCount(5);
});

test('an empty file gets a clear error and the drop zone stays', async ({ page, hostUrl }) => {
  await page.goto(hostUrl);
  await page.getByTestId('file-input').setInputFiles({ name: 'empty.csv', mimeType: 'text/csv', buffer: Buffer.alloc(0) });
  await expect(page.getByRole('alert')).toHaveText('Could not open empty.csv. "empty.csv" is empty.');
  await expect(page.getByTestId('drop-zone')).toBeVisible();
  await page.screenshot({ path: 'test-results/screens/empty-file-error.png' });
});

test('the page refuses to load without the run token', async ({ page, hostUrl }) => {
  const origin = new URL(hostUrl).origin;
  const response = await page.goto(`${origin}/`);
  expect(response?.status()).toBe(401);
  await expect(page.getByText('Open Sift with the link it printed')).toBeVisible();
});
