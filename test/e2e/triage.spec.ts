// What to do with the risky ones, as a person decides it in the browser: the scores' spread per verdict,
// a threshold moved and the count of the cleaned list following it (the export then holds exactly that
// many), a row's score and reasons in the explorer, sorted by score; rules per domain on their own screen
// with the rows each decided; the score's points in Settings. Screenshots light and dark; axe-core finds
// nothing serious.
import { readFileSync } from 'node:fs';
import { AxeBuilder } from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { cleanCsv, expect, test } from './web-host-fixture.ts';

async function expectAccessible(page: Page, selector?: string) {
  const builder = new AxeBuilder({ page });
  const { violations } = await (selector ? builder.include(selector) : builder).analyze();
  expect(violations.filter((violation) => ['serious', 'critical'].includes(violation.impact ?? ''))).toEqual([]);
}

async function screens(page: Page, name: string) {
  for (const colorScheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme });
    await page.screenshot({ path: `test-results/screens/triage/${name}-${colorScheme}.png`, fullPage: true });
  }
  await page.emulateMedia({ colorScheme: 'light' });
}

const list = [
  'email,name',
  'valid.ann@firm.example,Ann',
  'info@acme.example,Info',
  'catchall.cara@shop.example,Cara',
  'catchall.cy@shop.example,Cy',
  'unknown.dan@shop.example,Dan',
  'valid.eve@gamil.com,Eve',
  'valid.bob@gmail.com,Bob',
  'valid.zoe@mycorp.example,Zoe',
].join('\n');

test('a threshold moves the cleaned list, each row says why it scores as it does', async ({ page, hostUrl }) => {
  await page.goto(hostUrl);
  await cleanCsv(page, 'people.csv', `${list}\n`);
  const triage = page.getByTestId('score-triage');
  await expect(triage.getByTestId('spread-valid')).toHaveText('Valid' + '320');
  await expect(triage.getByTestId('spread-catch_all')).toHaveText('Catch-all' + '020');
  // Sift keeps valid addresses by default (disposable ones left out): five of them.
  await expect(page.getByTestId('kept-count')).toContainText('will hold 5 addresses');

  await page.getByRole('checkbox', { name: 'Catch-all', exact: true }).check();
  await expect(page.getByTestId('kept-count')).toContainText('will hold 7 addresses');
  const slider = triage.getByRole('slider', { name: /Catch-all scoring at least/ });
  await slider.focus();
  for (let i = 0; i < 12; i += 1) await page.keyboard.press('ArrowRight');
  await expect(triage.getByTestId('threshold-catch_all')).toHaveText('60');
  await expect(page.getByTestId('kept-count')).toContainText('will hold 5 addresses (7 by verdict alone)');

  // The row explorer: highest score first, and the reasons of the row the keyboard is on.
  await page.getByTestId('explorer-sort').selectOption('score_high');
  await expect(page.getByTestId('explorer-row').first()).toContainText('valid.ann@firm.example');
  await page.getByTestId('explorer-sort').selectOption('score_low');
  const grid = page.getByRole('grid', { name: 'Rows of the list' });
  await expect(grid.getByRole('columnheader')).toHaveText(['#', 'email', 'name', 'Verdict', 'Score', 'Notes']);
  await page.getByLabel('Show').selectOption('valid');
  await expect(page.getByTestId('explorer-row').first()).toContainText('valid.eve@gamil.com');
  await page.getByTestId('explorer-row').first().focus();
  const reasons = page.getByTestId('row-reasons');
  await expect(reasons).toContainText('score 60');
  await expect(reasons).toContainText('Valid: The mail server accepted the address');
  await expect(reasons).toContainText('−30 Likely typo: Likely a typo of a common domain');
  await screens(page, 'results');
  await expectAccessible(page);

  await page.getByTestId('export-button').click();
  const download = page.waitForEvent('download');
  await page.getByTestId('download-cleaned').click();
  const cleaned = readFileSync((await (await download).path())!, 'utf8')
    .split('\r\n')
    .filter(Boolean);
  // The header and the five the count said: the valid ones and Cara and Cy (catch-all, 55) left out at 60.
  expect(cleaned.slice(1).map((line) => line.split(',')[1])).toEqual(['Ann', 'Info', 'Eve', 'Bob', 'Zoe']);
});

test('rules per domain are set on their screen, decide rows before sending, and count them', async ({
  page,
  hostUrl,
}) => {
  await page.goto(hostUrl);
  await page.getByTestId('nav-rules').click();
  await expect(page.getByRole('heading', { name: 'Rules per domain' })).toBeFocused();
  await page.getByLabel('Domains, one per line').fill('mycorp.example\nnot a domain');
  await page.getByTestId('rule-action').selectOption('keep');
  await page.getByRole('button', { name: 'Set the rule' }).click();
  await expect(page.getByTestId('rules-notice')).toHaveText(
    'Typed: 1 domain set to always keep. 1 line left out: not a domain.',
  );
  await page.getByTestId('rule-action').selectOption('leave_out');
  await page.getByTestId('rules-file').setInputFiles({
    name: 'traps.txt',
    mimeType: 'text/plain',
    buffer: Buffer.from('shop.example\n'),
  });
  await expect(page.getByTestId('rules-notice')).toHaveText('traps.txt: 1 domain set to always leave out.');

  await page.getByTestId('nav-clean').click();
  await page
    .getByTestId('file-input')
    .setInputFiles({ name: 'people.csv', mimeType: 'text/csv', buffer: Buffer.from(`${list}\n`) });
  await expect(page.getByTestId('precheck-ruled')).toContainText('4');
  await page.getByTestId('start-button').click();
  await expect(page.getByTestId('result-status')).toContainText('Done');
  await page.getByLabel('Show').selectOption('ruled');
  await expect(page.getByTestId('explorer-count')).toHaveText('4 rows');
  await expect(page.getByTestId('explorer-row').first()).toContainText('Your rule for its domain: always leave out');

  await page.getByTestId('nav-rules').click();
  const table = page.getByTestId('rules-table');
  await expect(table.locator('tbody tr')).toHaveCount(2);
  await expect(table.locator('tbody tr').first()).toContainText('mycorp.example');
  await expect(table.locator('tbody tr').first()).toContainText('Always keep');
  await expect(table.locator('thead')).toContainText('Rows decided in people.csv');
  await expect(table.locator('tbody tr').nth(1)).toContainText('3');
  await screens(page, 'rules');
  await expectAccessible(page);
  await page.getByRole('button', { name: 'Remove the rule for shop.example' }).click();
  await expect(table.locator('tbody tr')).toHaveCount(1);
});

test("the score's points are changed in Settings, and Sift's own come back", async ({ page, hostUrl }) => {
  await page.goto(hostUrl);
  await page.getByTestId('nav-settings').click();
  const weights = page.getByTestId('score-weights');
  await expect(weights.getByTestId('weight-catch_all')).toHaveValue('55');
  await weights.getByTestId('weight-catch_all').fill('70');
  await weights.getByTestId('weight-role').fill('-200');
  await expect(weights.getByRole('alert')).toHaveText('Points are whole numbers from -100 to 100.');
  await expect(weights.getByRole('button', { name: 'Save points' })).toBeDisabled();
  await weights.getByTestId('weight-role').fill('-5');
  await weights.getByRole('button', { name: 'Save points' }).click();
  await expect(weights).toContainText('Saved: scores use these points now.');
  await expect(weights).toContainText('2 of them differ from Sift');
  await weights.scrollIntoViewIfNeeded();
  await screens(page, 'settings-points');
  await expectAccessible(page, '[data-testid="score-weights"]');
  await weights.getByRole('button', { name: "Sift's points again" }).click();
  await expect(weights.getByTestId('weight-catch_all')).toHaveValue('55');
});
