// The row explorer on the results screen: every row with its verdict, read from main as the list
// scrolls; filters and a search narrow it.
import { AxeBuilder } from '@axe-core/playwright';
import { cleanCsv, expect, test } from './web-host-fixture.ts';

test('the rows of a cleaned list can be scrolled, filtered and searched', async ({ page, hostUrl }) => {
  await page.goto(hostUrl);
  const lines = [
    'email,name',
    ...Array.from({ length: 3000 }, (_, i) => `${i % 10 === 9 ? 'unknown' : 'valid'}.p${i}@example.com,P${i}`),
  ];
  await cleanCsv(page, 'explore.csv', `${lines.join('\n')}\n`);
  await expect(page.getByTestId('explorer-count')).toHaveText('3,000 rows');
  await expect(page.getByTestId('explorer-row').first()).toContainText('valid.p0@example.com');

  // The last row, by scrolling (only a page of rows around the view is ever in the page).
  await page.getByTestId('explorer').evaluate((element) => element.scrollTo({ top: element.scrollHeight }));
  await expect(page.getByTestId('explorer-row').last()).toContainText('unknown.p2999@example.com');
  expect(await page.getByTestId('explorer-row').count()).toBeLessThan(100);

  // A grid to a screen reader: every row counted (the header too), one tab stop, the arrow keys move.
  const grid = page.getByRole('grid', { name: 'Rows of the list' });
  await expect(grid).toHaveAttribute('aria-rowcount', '3001');
  await expect(grid.getByRole('columnheader')).toHaveText(['#', 'email', 'name', 'Verdict', 'Score', 'Notes']);
  await page.getByTestId('explorer').evaluate((element) => element.scrollTo({ top: 0 }));
  const firstRow = grid.getByRole('row').nth(1);
  await expect(firstRow).toHaveAttribute('aria-rowindex', '2');
  await firstRow.focus();
  await page.keyboard.press('ArrowDown');
  await expect(page.locator(':focus')).toHaveAttribute('aria-rowindex', '3');
  await expect(page.locator(':focus')).toContainText('valid.p1@example.com');
  await page.keyboard.press('End');
  await expect(page.locator(':focus')).toHaveAttribute('aria-rowindex', '3001');
  await expect(page.locator(':focus')).toContainText('unknown.p2999@example.com');
  await page.keyboard.press('Home');
  await expect(page.locator(':focus')).toHaveAttribute('aria-rowindex', '2');
  const { violations } = await new AxeBuilder({ page }).include('.explorer').analyze();
  expect(violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')).toEqual([]);

  await page.getByLabel('Show').selectOption('unknown');
  await expect(page.getByTestId('explorer-count')).toHaveText('300 rows');
  await expect(page.getByTestId('explorer-row').first()).toContainText('Unknown');
  await page.getByLabel('Search').fill('p1239@');
  await page.getByRole('button', { name: 'Find' }).click();
  await expect(page.getByTestId('explorer-count')).toHaveText('1 row');
  await expect(page.getByTestId('explorer-row')).toHaveCount(1);
  await expect(page.getByTestId('explorer-row')).toContainText('unknown.p1239@example.com');
  await page.screenshot({ path: 'test-results/screens/explorer.png', fullPage: true });
  // The address shows whole: its cell is not cut short while the notes take the room.
  const addressCell = page.getByTestId('explorer-row').getByText('unknown.p1239@example.com', { exact: true });
  expect(await addressCell.evaluate((cell) => cell.scrollWidth <= cell.clientWidth)).toBe(true);
});

test('a likely typo is accepted in the explorer and the cleaned list has the corrected address', async ({
  page,
  hostUrl,
}) => {
  await page.goto(hostUrl);
  await cleanCsv(
    page,
    'typos.csv',
    'email,name\nvalid.ann@gamil.com,Ann\nvalid.bob@gamil.com,Bob\nvalid.cat@example.com,Cat\n',
  );
  await page.getByLabel('Show').selectOption('typo');
  await expect(page.getByTestId('explorer-count')).toHaveText('2 rows');
  await page.getByRole('button', { name: 'Accept valid.ann@gmail.com' }).click();
  await expect(page.getByTestId('explorer-row').first()).toContainText('corrected to valid.ann@gmail.com');
  await page.getByRole('button', { name: 'Accept for all at gamil.com' }).click();
  await expect(page.getByTestId('explorer-row').nth(1)).toContainText('corrected to valid.bob@gmail.com');

  await page.getByTestId('export-button').click();
  const download = page.waitForEvent('download');
  await page.getByTestId('download-cleaned').click();
  const { readFileSync } = await import('node:fs');
  const cleaned = readFileSync((await (await download).path())!, 'utf8');
  expect(cleaned.split('\r\n').filter(Boolean)).toEqual([
    '\uFEFFemail,name',
    'valid.ann@gmail.com,Ann',
    'valid.bob@gmail.com,Bob',
    'valid.cat@example.com,Cat',
  ]);
});

test('a filter chosen while the rows are still on their way shows only its own rows', async ({ page, hostUrl }) => {
  // Every page of all the rows is held back until a page of the typo filter has been answered, so the
  // unfiltered rows arrive last, as they can when a person chooses a filter the moment the results show.
  let typoAnswered!: () => void;
  const typoPage = new Promise<void>((resolve) => (typoAnswered = resolve));
  const heldBack: Promise<void>[] = [];
  await page.route('**/api/calls/jobs:rows', async (route) => {
    const { filter } = route.request().postDataJSON() as { filter: string };
    const response = await route.fetch();
    if (filter === 'typo') {
      await route.fulfill({ response });
      typoAnswered();
      return;
    }
    const answered = typoPage.then(() => route.fulfill({ response }));
    heldBack.push(answered);
    await answered;
  });
  await page.goto(hostUrl);
  await cleanCsv(page, 'late-rows.csv', 'email\nvalid.ann@gamil.com\nvalid.bob@gamil.com\nvalid.cat@example.com\n');
  await page.getByLabel('Show').selectOption('typo');
  await typoPage;
  expect(heldBack.length).toBeGreaterThan(0);
  await Promise.all(heldBack);
  await expect(page.getByTestId('explorer-count')).toHaveText('2 rows');
  await expect(page.getByTestId('explorer-row')).toHaveCount(2);
  await expect(page.getByTestId('explorer-row').nth(1)).toContainText('valid.bob@gamil.com');
});
