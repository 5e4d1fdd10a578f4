// A 50,000-row list in the browser (`npm run bench` cleans a million): scroll the explorer to the last row, filter to unknown, search an
// address, accept a typo's correction, export the per-verdict files, and find as many rows in each file
// as the screen says. Then the same flow's steps are reached by keyboard alone.
import { readFileSync } from 'node:fs';
import { expect, test } from './web-host-fixture.ts';

const rows = 50_000;

function bigList(): Buffer {
  const lines = ['id,email,name'];
  for (let i = 1; i <= rows; i += 1) {
    const local = i % 7 === 0 ? `unknown.u${i}` : `valid.v${i}`;
    const domain = i === 4243 ? 'gamil.com' : `host${i % 200}.example`;
    lines.push(`${i},${local}@${domain},Person ${i}`);
  }
  return Buffer.from(`${lines.join('\n')}\n`);
}

const shownCount = async (text: string | null) => Number((text ?? '').replace(/\D/g, ''));

test('a 50,000-row list is explored, corrected and exported, with files that match the screen', async ({
  page,
  hostUrl,
}) => {
  test.setTimeout(240_000);
  await page.goto(hostUrl);
  await page.getByTestId('file-input').setInputFiles({ name: 'large.csv', mimeType: 'text/csv', buffer: bigList() });
  await expect(page.getByTestId('precheck-rows')).toContainText('50,000', { timeout: 60_000 });
  // By keyboard: the start button is reached with Tab and pressed with Enter.
  for (let tries = 0; tries < 40; tries += 1) {
    if (await page.getByTestId('start-button').evaluate((button) => button === document.activeElement)) break;
    await page.keyboard.press('Tab');
  }
  await expect(page.getByTestId('start-button')).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('result-status')).toContainText('Done', { timeout: 90_000 });

  await expect(page.getByTestId('explorer-count')).toHaveText('50,000 rows', { timeout: 30_000 });
  await page.getByTestId('explorer').evaluate((element) => element.scrollTo({ top: element.scrollHeight }));
  await expect(page.getByTestId('explorer-row').last()).toContainText('valid.v50000@host0.example');

  await page.getByLabel('Show').selectOption('unknown');
  const unknownShown = await shownCount(await page.getByTestId('summary-unknown').locator('dd').textContent());
  await expect(page.getByTestId('explorer-count')).toHaveText(`${unknownShown.toLocaleString('en')} rows`);
  await page.getByLabel('Show').selectOption('all');
  await page.getByLabel('Search').fill('v12345@');
  await page.getByRole('button', { name: 'Find' }).click();
  await expect(page.getByTestId('explorer-row')).toHaveCount(1);
  await expect(page.getByTestId('explorer-row')).toContainText('valid.v12345@host145.example');

  await page.getByLabel('Search').fill('');
  await page.getByRole('button', { name: 'Find' }).click();
  await page.getByLabel('Show').selectOption('typo');
  await page.getByRole('button', { name: 'Accept valid.v4243@gmail.com' }).click();
  await expect(page.getByTestId('explorer-row').first()).toContainText('corrected to valid.v4243@gmail.com');

  await page.getByLabel(/one file per verdict/).check();
  await page.getByTestId('export-button').click();
  for (const [kind, card] of [
    ['valid', 'summary-valid'],
    ['unknown', 'summary-unknown'],
  ] as const) {
    const shown = await shownCount(await page.getByTestId(card).locator('dd').textContent());
    const download = page.waitForEvent('download');
    await page.getByTestId(`download-${kind}`).click();
    const text = readFileSync((await (await download).path())!, 'utf8');
    expect(text.split('\r\n').filter(Boolean).length - 1, kind).toBe(shown);
  }
  const cleaned = page.waitForEvent('download');
  await page.getByTestId('download-cleaned').click();
  expect(readFileSync((await (await cleaned).path())!, 'utf8')).toContain('4243,valid.v4243@gmail.com,Person 4243');
});
