// Every screen of the app in one colour scheme and window size: a screenshot of each to look at
// (test-results/screens/appearance/), and axe-core finds no serious or critical violation on any of them.
// screens.spec.ts sweeps each pair (`npm run test:screens`).
import { AxeBuilder } from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { expect } from './web-host-fixture.ts';

const newsletter = new URL('../fixtures/newsletter.csv', import.meta.url).pathname;

export type Sweep = { colorScheme: 'light' | 'dark'; viewport: { width: number; height: number } };

export async function expectAccessible(page: Page, screen: string): Promise<void> {
  const { violations } = await new AxeBuilder({ page }).analyze();
  const serious = violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map(
      (violation) => `${screen}: ${violation.id} (${violation.nodes.map((node) => node.target.join(' ')).join(', ')})`,
    );
  expect(serious).toEqual([]);
}

export const sweepName = ({ colorScheme, viewport }: Sweep) =>
  `screens in ${colorScheme} mode at ${viewport.width}x${viewport.height}`;

/** Drop, review, results, History, Settings, Check, Mailing tools and Service, each shot and checked. */
export async function sweepScreens(page: Page, hostUrl: string, { colorScheme, viewport }: Sweep): Promise<void> {
  const size = `${viewport.width}x${viewport.height}`;
  await page.emulateMedia({ colorScheme });
  await page.setViewportSize(viewport);
  const shot = async (name: string) => {
    await page.screenshot({
      path: `test-results/screens/appearance/${name}-${colorScheme}-${size}.png`,
      fullPage: true,
    });
    await expectAccessible(page, `${name} (${colorScheme}, ${size})`);
  };
  await page.goto(hostUrl);
  await expect(page.getByRole('heading', { name: 'Drop a CSV list here' })).toBeVisible();
  await shot('drop');

  await page.getByTestId('file-input').setInputFiles(newsletter);
  await expect(page.getByTestId('cost')).toBeVisible();
  await shot('review');

  await page.getByTestId('start-button').click();
  await expect(page.getByTestId('result-status')).toContainText('Done', { timeout: 20_000 });
  await page.getByTestId('export-button').click();
  await expect(page.getByTestId('download-cleaned')).toBeVisible();
  await shot('results');

  await page.getByTestId('nav-history').click();
  await expect(page.getByTestId('history-table')).toBeVisible();
  await shot('history');

  await page.getByTestId('nav-settings').click();
  await expect(page.getByLabel('Service URL')).toBeVisible();
  await shot('settings');

  await page.getByTestId('nav-check').click();
  await page.getByLabel('Email address').fill('valid.look@example.com');
  await page.getByRole('button', { name: 'Check', exact: true }).click();
  await expect(page.getByTestId('check-answer')).toContainText('Valid');
  await shot('check');

  await page.getByTestId('nav-connections').click();
  await expect(page.getByText('No tool is connected yet.')).toBeVisible();
  await shot('connections');

  await page.getByTestId('nav-service').click();
  await expect(page.getByTestId('service-keys')).toBeVisible();
  await shot('service');
}
