// The email column is chosen deliberately (keyboard arrows do not re-read the list, a mostly empty
// column asks first, a file with no detectable column still opens with a picker, a reopened list can
// change column), and History lists, reopens and deletes lists.
import { cleanCsv, expect, test } from './web-host-fixture.ts';

const contacts = new URL('../fixtures/contacts.csv', import.meta.url).pathname;

test('arrow keys move through the columns; the list is read again only when asked', async ({ page, hostUrl }) => {
  await page.goto(hostUrl);
  await page.getByTestId('file-input').setInputFiles(contacts);
  const select = page.getByTestId('column-select');
  await expect(select).toHaveValue('1');
  const cost = await page.getByTestId('cost').textContent();
  await select.focus();
  await page.keyboard.press('ArrowDown');
  await expect(select).toHaveValue('2');
  await expect(select).toBeFocused();
  await expect(page.getByTestId('cost')).toHaveText(cost!);
  await expect(page.getByTestId('start-button')).toBeEnabled();

  await page.getByRole('button', { name: 'Use this column' }).click();
  await expect(page.getByTestId('precheck-bad-syntax')).toContainText('4');
  // "First Name" holds no address: cleaning it needs a second thought.
  await expect(page.getByTestId('few-addresses')).toContainText('Is this the email column?');
  await expect(page.getByTestId('start-button')).toBeDisabled();
  await page.getByLabel('Clean this column anyway').check();
  await expect(page.getByTestId('start-button')).toBeEnabled();
  await page.screenshot({ path: 'test-results/screens/few-addresses.png', fullPage: true });
});

test('a file whose email column is not found opens with a column picker', async ({ page, hostUrl }) => {
  await page.goto(hostUrl);
  const rows = [
    'Name,Email,Phone',
    ...Array.from({ length: 9 }, (_, i) => `P${i},ask later,555 010${i}`),
    'Q,valid.q@example.com,',
  ];
  await page.getByTestId('file-input').setInputFiles({
    name: 'sparse.csv',
    mimeType: 'text/csv',
    buffer: Buffer.from(`${rows.join('\n')}\n`),
  });
  await expect(page.getByRole('alert')).toContainText('Sift could not tell which column holds the addresses.');
  await expect(page.getByTestId('preview-table')).toBeVisible();
  await page.screenshot({ path: 'test-results/screens/pick-column.png', fullPage: true });
  await page.getByTestId('column-select').selectOption({ label: 'Email' });
  await page.getByRole('button', { name: 'Use this column' }).click();
  await expect(page.getByTestId('job-file-name')).toHaveText('sparse.csv');
  await expect(page.getByTestId('precheck-bad-syntax')).toContainText('9');
  await expect(page.getByTestId('precheck-to-check')).toContainText('1');
});

test('History reopens a list to change its column, then deletes it', async ({ page, hostUrl }) => {
  await page.goto(hostUrl);
  await page.getByTestId('file-input').setInputFiles({
    name: 'history.csv',
    mimeType: 'text/csv',
    buffer: Buffer.from('Company,Email\nNorthwind,valid.a@example.com\nContoso,valid.b@example.com\n'),
  });
  await expect(page.getByTestId('cost')).toContainText('2 demo verdicts');

  await page.getByTestId('nav-history').click();
  await expect(page.getByRole('heading', { name: 'History' })).toBeFocused();
  const row = page.getByTestId('history-row').filter({ hasText: 'history.csv' });
  await expect(row).toContainText('Ready to clean');
  await expect(page.getByTestId('data-usage')).toContainText("Sift's lists and exports take");
  await row.getByRole('button', { name: 'Open history.csv' }).click();

  // Reopened without the dropped file: the rows come from the job's own copy, and the column can change.
  await expect(page.getByTestId('preview-table')).toBeVisible();
  await page.getByTestId('column-select').selectOption({ label: 'Company' });
  await page.getByRole('button', { name: 'Use this column' }).click();
  await expect(page.getByTestId('precheck-bad-syntax')).toContainText('2');
  await page.getByTestId('column-select').selectOption({ label: 'Email' });
  await page.getByRole('button', { name: 'Use this column' }).click();
  await expect(page.getByTestId('precheck-to-check')).toContainText('2');
  await page.getByTestId('start-button').click();
  await expect(page.getByTestId('result-status')).toContainText('Done', { timeout: 20_000 });

  await page.getByTestId('nav-history').click();
  await expect(row).toContainText('2 valid');
  await expect(row).toHaveCount(1);
  await page.screenshot({ path: 'test-results/screens/history.png', fullPage: true });
  await row.getByRole('button', { name: 'Delete history.csv' }).click();
  await row.getByRole('button', { name: 'Yes, delete history.csv' }).click();
  await expect(page.getByRole('main').getByRole('status')).toContainText(/Deleted history\.csv: .* freed\./);
  await expect(row).toHaveCount(0);
});

test('a list dropped anywhere in the window opens, from any screen', async ({ page, hostUrl }) => {
  await page.goto(hostUrl);
  await page.getByTestId('nav-history').click();
  const dataTransfer = await page.evaluateHandle(() => {
    const transfer = new DataTransfer();
    transfer.items.add(new File(['email\nvalid.w@example.com\n'], 'anywhere.csv', { type: 'text/csv' }));
    return transfer;
  });
  await page.locator('.app-header').dispatchEvent('dragover', { dataTransfer });
  await page.locator('.app-header').dispatchEvent('drop', { dataTransfer });
  await expect(page.getByTestId('job-file-name')).toHaveText('anywhere.csv');
  await expect(page.getByTestId('nav-clean')).toHaveAttribute('aria-current', 'page');
});

test('History shows a list cleaned more than once with its runs side by side', async ({ page, hostUrl }) => {
  await page.goto(hostUrl);
  const list = (valid: number) =>
    `email\n${Array.from({ length: 10 }, (_, i) => `${i < valid ? 'valid' : 'invalid'}.p${i}@example.com`).join('\n')}\n`;
  await cleanCsv(page, 'spring.csv', list(8));
  await page.getByRole('button', { name: 'Clean another list' }).click();
  await cleanCsv(page, 'spring.csv', list(6));
  await page.getByRole('button', { name: 'Clean another list' }).click();
  await cleanCsv(page, 'autumn.csv', list(9));
  await page.getByTestId('nav-history').click();
  const runs = page.getByTestId('list-runs');
  // Only the list cleaned twice is compared; its two runs, oldest first.
  await expect(runs).toHaveCount(1);
  await expect(runs.getByRole('table')).toContainText('spring.csv: cleaned 2 times');
  await expect(runs.getByRole('row', { name: /^Valid/ })).toHaveText(/Valid\s*80\.0%\s*60\.0%/);
  await expect(runs.getByRole('row', { name: /^Invalid/ })).toHaveText(/Invalid\s*20\.0%\s*40\.0%/);
  await expect(runs.getByRole('row', { name: /^Verdicts/ })).toHaveText(/Verdicts\s*Demo\s*Demo/);
  await page.screenshot({ path: 'test-results/screens/history-runs.png', fullPage: true });
});
