// The screen for Sift's own service: a key is made (its secret shown once, with Copy) and revoked, and a
// webhook endpoint is added and removed. (Replaying a failed delivery is tested through the same calls
// in test/integration/core/app/app-service-dashboard.test.ts, where deliveries can be made to fail at once.)
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { cleanCsv, expect, startHost, test } from './web-host-fixture.ts';

test("Sift's service: keys and webhook endpoints", async ({ page, hostUrl, context }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await page.goto(hostUrl);
  await page.getByTestId('nav-service').click();
  await expect(page.getByRole('heading', { name: "Sift's service" })).toBeFocused();
  await expect(page.getByTestId('service-keys')).toContainText('Used by Sift');

  await page.getByLabel('Name of the new key').fill('Reporting tool');
  await page.getByLabel('Kind').selectOption('live');
  await page.getByRole('button', { name: 'Create key' }).click();
  const shown = page.getByTestId('shown-once');
  await expect(shown).toContainText('The new key for Reporting tool, shown only now: svc_live_');
  const secret = (await shown.locator('code').textContent())!;
  await shown.getByRole('button', { name: 'Copy' }).click();
  await expect(shown.getByRole('button', { name: 'Copied' })).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(secret);
  const row = page.getByTestId('service-keys').getByRole('row', { name: /Reporting tool/ });
  await expect(row).toContainText(`svc_live_…${secret.slice(-4)}`);
  await expect(row).not.toContainText(secret);
  await page.screenshot({ path: 'test-results/screens/service.png', fullPage: true });

  await row.getByRole('button', { name: 'Revoke Reporting tool' }).click();
  await expect(row).toContainText('Revoked');
  await expect(page.getByTestId('shown-once')).toHaveCount(0);
  // Leaving the screen forgets the secret for good.
  await page.getByTestId('nav-clean').click();
  await page.getByTestId('nav-service').click();
  await expect(page.getByText(secret)).toHaveCount(0);

  // The box follows what main saved, so it changes once the answer is in.
  await page.getByLabel(/Listen on a fixed port/).click();
  await expect(page.getByLabel(/Listen on a fixed port/)).toBeChecked();
  await expect(page.getByRole('status').filter({ hasText: 'next start' })).toContainText('http://127.0.0.1:7455/v1');
  await page.getByLabel(/Listen on a fixed port/).click();
  await expect(page.getByLabel(/Listen on a fixed port/)).not.toBeChecked();
  await expect(page.getByRole('status').filter({ hasText: 'next start' })).toContainText('only for Sift itself');

  // Webhooks stay outside: an address on this computer is refused, in words naming the flag.
  await expect(page.getByTestId('webhook-rule')).toContainText('only to public addresses');
  await page.getByLabel('Endpoint URL').fill('http://127.0.0.1:8080/hooks');
  await page.getByRole('button', { name: 'Add endpoint' }).click();
  await expect(page.getByRole('alert')).toContainText('this computer (loopback)');
  await expect(page.getByTestId('service-endpoints')).not.toContainText('127.0.0.1');

  await page.getByLabel('Endpoint URL').fill('https://hooks.example.com/sift');
  await page.getByRole('button', { name: 'Add endpoint' }).click();
  await expect(page.getByTestId('shown-once')).toContainText('whsec_');
  await expect(page.getByTestId('service-endpoints')).toContainText('https://hooks.example.com/sift');
  await page.getByRole('button', { name: 'Remove https://hooks.example.com/sift' }).click();
  await expect(page.getByTestId('service-endpoints')).not.toContainText('hooks.example.com');
});

test("Sift's service: a delivery that failed is sent again by hand", async ({ page }) => {
  // The receiver is on this computer: the app is started as an operator who needs that would start it.
  const host = await startHost(undefined, { args: ['--allow-private-webhooks'] });
  const hostUrl = host.url;
  // A receiver on loopback that refuses the first delivery and takes the next.
  let attempts = 0;
  const receiver = createServer((request, response) => {
    request.resume();
    attempts += 1;
    response.writeHead(attempts === 1 ? 500 : 200).end();
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;
  try {
    await page.goto(hostUrl);
    await page.getByTestId('nav-service').click();
    await page.getByLabel('Endpoint URL').fill(url);
    await expect(page.getByTestId('webhook-rule')).toContainText('--allow-private-webhooks');
    await page.getByRole('button', { name: 'Add endpoint' }).click();
    await expect(page.getByTestId('service-endpoints')).toContainText(url);
    await expect(page.getByTestId('service-endpoints')).toContainText('this computer (loopback): delivered');

    // A cleaned list's batch completes: its event goes to the receiver, which refuses it.
    await page.getByTestId('nav-clean').click();
    await cleanCsv(page, 'hooked.csv', 'email\nvalid.hook@example.com\n');
    await page.getByTestId('nav-service').click();
    const deliveries = page.getByTestId('service-deliveries');
    await expect
      .poll(
        async () => {
          await page.getByRole('button', { name: 'Refresh' }).click();
          return (await deliveries.textContent()) ?? '';
        },
        { timeout: 15_000 },
      )
      .toContain('HTTP 500');
    await deliveries
      .getByRole('button', { name: /Send again now|Replay/ })
      .first()
      .click();
    await expect
      .poll(
        async () => {
          await page.getByRole('button', { name: 'Refresh' }).click();
          return (await deliveries.textContent()) ?? '';
        },
        { timeout: 15_000 },
      )
      .toContain('Delivered');
    expect(attempts).toBe(2);
  } finally {
    host.child.kill('SIGTERM');
    receiver.close();
  }
});
