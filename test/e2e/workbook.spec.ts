// An Excel workbook as a person drops it: the first sheet holds no addresses, so the list is read from the
// sheet that does, and another can be chosen; the list is cleaned and exported as workbooks. Screenshots
// light and dark.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeWorkbook } from '../support/workbook-parts.ts';
import { expect, test } from './web-host-fixture.ts';

const inline = (cells: string[], row: number) =>
  `<row r="${row}">${cells.map((cell, i) => `<c r="${String.fromCharCode(65 + i)}${row}" t="inlineStr"><is><t>${cell}</t></is></c>`).join('')}</row>`;

test('a workbook is read from the sheet chosen, cleaned, and exported as workbooks', async ({ page, hostUrl }) => {
  const book = join(mkdtempSync(join(tmpdir(), 'sift-e2e-book-')), 'members.xlsx');
  await writeWorkbook(book, {
    sheets: [
      { name: 'Read me', rows: [inline(['Exported from the CRM on 1 November'], 1)] },
      {
        name: 'Members',
        rows: [
          inline(['Name', 'Email', 'Zip'], 1),
          inline(['Ann', 'valid.ann@shop.example', '00501'], 2),
          inline(['Bo', 'invalid.bo@shop.example', '02134'], 3),
          inline(['Cy', 'valid.cy@mall.example', '07001'], 4),
        ],
      },
    ],
  });
  await page.goto(hostUrl);
  await page.getByTestId('file-input').setInputFiles(book);
  await expect(page.getByTestId('job-file-name')).toHaveText('members.xlsx');
  await expect(page.getByTestId('sheet-select')).toHaveValue('Members');
  // The other sheet, chosen by hand, holds no addresses: said, and the list read before is kept.
  await page.getByTestId('sheet-select').selectOption('Read me');
  await page.getByTestId('sheet-apply').click();
  await expect(page.getByRole('alert')).toContainText('has no column of email addresses');
  await expect(page.getByTestId('sheet-select')).toHaveValue('Members');
  await expect(page.getByTestId('precheck-to-check')).toContainText('3');
  await expect(page.getByText('Excel workbook, sheet “Members”')).toBeVisible();
  await expect(page.getByTestId('preview-table')).toContainText('00501');
  for (const colorScheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme });
    await page.screenshot({ path: `test-results/screens/workbook/review-${colorScheme}.png`, fullPage: true });
  }
  await page.emulateMedia({ colorScheme: 'light' });

  await page.getByTestId('start-button').click();
  await expect(page.getByTestId('result-status')).toContainText('Done', { timeout: 20_000 });
  await page.getByLabel('Excel workbooks (.xlsx)').check();
  await page.getByTestId('export-button').click();
  const cleaned = page.getByTestId('download-cleaned');
  await expect(page.getByText('members.demo.cleaned.xlsx')).toBeVisible();
  const download = page.waitForEvent('download');
  await cleaned.click();
  const file = await (await download).path();
  expect(readFileSync(file).subarray(0, 2).toString()).toBe('PK');
  await page.screenshot({ path: 'test-results/screens/workbook/exported.png', fullPage: true });
});
