// The report to hand on: saved from the results of a list with every kind of row, opened with the network
// cut off (nothing it needs is fetched), its numbers checked against the results screen, and printed to
// PDF on A4 and Letter: at most two pages, nothing wider than the page.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from './web-host-fixture.ts';

const list = [
  'email,name',
  'valid.ann@gmail.com,Ann',
  'valid.bo@example.com,Bo',
  'valid.bo@example.com,Bo again',
  'info@example.com,Role',
  'invalid.cy@example.org,Cy',
  'catchall.dee@example.net,Dee',
  'unknown.eve@example.com,Eve',
  'valid.fay@gamil.com,Typo',
  'valid.gus@mailinator.com,Disposable',
  'not an address,Bad',
  ',Nobody',
  '',
].join('\n');

const pdfPages = (pdf: Buffer) => (pdf.toString('latin1').match(/\/Type\s*\/Page\b(?!s)/g) ?? []).length;

test('the report of a cleaned list is one file that needs nothing else and prints to two pages at most', async ({
  page,
  context,
  hostUrl,
}) => {
  test.setTimeout(60_000);
  await page.goto(hostUrl);
  await page
    .getByTestId('file-input')
    .setInputFiles({ name: 'spring.csv', mimeType: 'text/csv', buffer: Buffer.from(list) });
  await page.getByTestId('start-button').click();
  await expect(page.getByTestId('result-status')).toContainText('Done: demo verdicts', { timeout: 20_000 });
  const shown = async (card: string) =>
    Number((await page.getByTestId(`summary-${card}`).locator('dd').textContent())!.replace(/\D/g, ''));

  await page.getByTestId('save-report').click();
  const link = page.getByTestId('download-report');
  await expect(link).toBeFocused();
  await expect(link).toContainText('Download spring.demo.report.html');
  const download = page.waitForEvent('download');
  await link.click();
  const file = await download;
  expect(file.suggestedFilename()).toBe('spring.demo.report.html');
  // Saved under its own name, as a person's browser saves it: the name tells a browser it is a web page.
  const path = join(mkdtempSync(join(tmpdir(), 'sift-report-')), file.suggestedFilename());
  await file.saveAs(path);
  const html = readFileSync(path, 'utf8');

  // Opened as a file with the network cut off: no request leaves it.
  const report = await context.newPage();
  const requests: string[] = [];
  report.on('request', (request) => requests.push(request.url()));
  await report.route(/^https?:/, (route) => route.abort());
  await report.goto(`file://${path}`);
  expect(requests.filter((url) => !url.startsWith('file:'))).toEqual([]);
  await expect(report.getByRole('heading', { level: 1 })).toHaveText('Demo report: spring.csv');
  await expect(report.getByText('Demo.', { exact: false }).first()).toBeVisible();
  await expect(report.getByRole('img', { name: /^Verdicts: Valid: \d+/ })).toBeVisible();

  // Its numbers are the results screen's.
  const funnel = report.getByRole('table', { name: 'From rows to verdicts' });
  for (const [label, card] of [
    ['Valid', 'valid'],
    ['Invalid', 'invalid'],
    ['Catch-all', 'catch-all'],
    ['Unknown', 'unknown'],
    ['Repeats of an address above', 'duplicates'],
    ['Not an email address (bad syntax)', 'bad-syntax'],
    ['No address in the row', 'no-address'],
  ] as const) {
    await expect(
      funnel.getByRole('row', { name: label, exact: false }).first().locator('td').first(),
      label,
    ).toHaveText(String(await shown(card)));
  }
  expect(html).toContain('<th scope="row">Rows in the list</th><td>11</td>');
  await expect(report.getByRole('table', { name: 'Mailbox providers' })).toContainText('Google');
  await expect(report.getByRole('table', { name: 'Top domains' })).toContainText('example.com');

  for (const colorScheme of ['light', 'dark'] as const) {
    await report.emulateMedia({ colorScheme });
    await report.screenshot({ path: `test-results/screens/report-${colorScheme}.png`, fullPage: true });
  }
  // Printed: A4 and Letter, each at most two pages; at A4's width nothing runs past the page's edge.
  await report.emulateMedia({ media: 'print' });
  await report.setViewportSize({ width: 703, height: 1000 });
  const overflowing = await report.evaluate(() =>
    Array.from(document.querySelectorAll('main *'))
      .filter((element) => element.getBoundingClientRect().right > document.documentElement.clientWidth + 1)
      .map((element) => element.outerHTML.slice(0, 80)),
  );
  expect(overflowing).toEqual([]);
  for (const format of ['A4', 'Letter'] as const) {
    const pdf = await report.pdf({ format, printBackground: true });
    expect(pdfPages(pdf), format).toBeGreaterThanOrEqual(1);
    expect(pdfPages(pdf), format).toBeLessThanOrEqual(2);
  }
});
