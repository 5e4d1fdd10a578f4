// History's "What happened" panel: with no outcomes it says how to bring them in; a bounce export whose
// rows do not say hard or soft is refused in words until the person says what they are; a real export is
// read, and the ledger sets its bounces beside Sift's live verdicts (kept in the data folder's real
// verdict cache before the app starts). Screenshots light and dark, and axe-core finds nothing serious.
// A list checked live shows on its results what happened to its own addresses once bounces are read back.
// A catch-all domain learned by a campaign's sends moves the next list's scores, and the explorer says why.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AxeBuilder } from '@axe-core/playwright';
import { cacheKeysOf } from '../../electron/core/cache/index.ts';
import { openVerdictCache } from '../../electron/core/cache/verdict-cache-store.ts';
import { startMailchimp, subscriberHash } from '../support/mailchimp-server.ts';
import { runSift } from '../support/run-sift.ts';
import { startSpecPeer } from '../support/spec-peer.ts';
import { useHostedService } from './hosted-service.ts';
import { cleanCsv, expect, startHost, stopChild, test } from './web-host-fixture.ts';

test('bounces brought in from a file show how Sift’s verdicts turned out', async ({ page }) => {
  const dataDir = mkdtempSync(join(tmpdir(), 'sift-e2e-outcomes-'));
  const key = cacheKeysOf(dataDir);
  const cache = openVerdictCache(dataDir);
  cache.remember('live', 'https://verify.example', Date.UTC(2026, 2, 3), [
    [
      ...Array.from({ length: 10 }, (_, i) => [key(`v${i}@shop.example`), 'valid', 'accepted_email'] as const),
      ...Array.from({ length: 4 }, (_, i) => [key(`c${i}@acme.example`), 'catch_all', 'accept_all_domain'] as const),
    ],
  ]);
  cache.close();
  const app = await startHost(dataDir);
  try {
    await page.goto(app.url);
    await page.getByTestId('nav-history').click();
    const panel = page.getByTestId('what-happened');
    await expect(panel).toContainText('No bounces read back yet.');

    const file = page.getByTestId('outcomes-file');
    await file.setInputFiles({
      name: 'suppressions.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from('email\nv1@shop.example\n'),
    });
    await expect(panel.getByRole('alert')).toContainText(
      'has no column that says which bounces were hard and which soft',
    );

    await file.setInputFiles({
      name: 'ses-bounces.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from(
        'Email,Bounce Type,Date,Reason\n' +
          'v3@shop.example,Permanent,2026-03-10,550 5.1.1 user unknown\n' +
          'c1@acme.example,Permanent,2026-03-11,550 5.1.1 mailbox unavailable\n' +
          'c2@acme.example,Transient,2026-03-11,452 4.2.2 Mailbox full\n' +
          'stranger@else.example,Permanent,2026-03-12,\n',
      ),
    });
    await expect(page.getByTestId('ledger-sentence')).toHaveText(
      'Of 4 addresses Sift called catch-all, 1 bounced (25%); of 10 valid, 1 bounced (10%).',
    );
    await expect(panel).toContainText(
      'ses-bounces.csv: 3 hard bounces (3 addresses new on the do-not-mail list), 1 soft bounce.',
    );
    const table = page.getByTestId('ledger-table');
    await expect(table.locator('tbody tr')).toHaveCount(2);
    await expect(table.locator('tbody tr').nth(0)).toContainText('Catch-all4not known1 (25%)10');
    await expect(panel).toContainText('Addresses Sift never checked live: 1 bounced hard');
    // The file refused first left nothing behind: one source.
    await expect(panel.getByTestId('outcome-source')).toHaveText(['ses-bounces.csv (file)Forget…']);
    await expect(panel).toContainText('Who was sent to is not known');
    await expect(page.getByTestId('bounce-chart').locator('.recharts-bar-rectangle')).toHaveCount(2);
    // Every outcome, the person's to take anywhere: written by main, downloaded from the page.
    await page.getByTestId('save-outcomes').click();
    const download = page.waitForEvent('download');
    await page.getByTestId('download-outcomes').click();
    const saved = await download;
    expect(saved.suggestedFilename()).toMatch(/^sift-outcomes-\d{4}-\d\d-\d\d\.csv$/);
    const lines = readFileSync((await saved.path())!, 'utf8')
      .trim()
      .split('\n');
    expect(lines[0]).toBe(
      'email,kind,reason,status,server_words,bounced_at,source,undone_at,sift_said,sift_checked_at',
    );
    expect(lines).toHaveLength(5);
    expect(lines.find((line) => line.startsWith('c1@acme.example,hard,'))).toContain(',catch_all,2026-03-03T');
    for (const colorScheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme });
      await page.screenshot({ path: `test-results/screens/outcomes/history-${colorScheme}.png`, fullPage: true });
    }
    await page.emulateMedia({ colorScheme: 'light' });
    const { violations } = await new AxeBuilder({ page }).analyze();
    expect(violations.filter((violation) => ['serious', 'critical'].includes(violation.impact ?? ''))).toEqual([]);

    // The person forgets the file: its outcomes go, and the do-not-mail entries its bounces made with them.
    await page.getByRole('button', { name: 'Forget ses-bounces.csv (file)…' }).click();
    // It asks once more, in words; the way out keeps the source.
    await expect(panel).toContainText('Forget everything read from it, and the do-not-mail entries its bounces made?');
    await page.getByTestId('confirm-forget-source').scrollIntoViewIfNeeded();
    for (const colorScheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme });
      await page.screenshot({ path: `test-results/screens/outcomes/forget-asking-${colorScheme}.png` });
    }
    await page.emulateMedia({ colorScheme: 'light' });
    await page.getByRole('button', { name: 'Keep it' }).click();
    await expect(page.getByTestId('confirm-forget-source')).toHaveCount(0);
    await page.getByRole('button', { name: 'Forget ses-bounces.csv (file)…' }).click();
    await page.getByTestId('confirm-forget-source').click();
    await expect(page.getByTestId('outcomes-notice')).toHaveText(
      'Forgot 4 outcomes from ses-bounces.csv (file), and 3 do-not-mail entries its bounces had made.',
    );
    await expect(panel).toContainText('No bounces read back yet.');
    await page.getByTestId('nav-suppression').click();
    await expect(page.getByTestId('suppression-shown')).toHaveText('Nothing on the list yet.');
  } finally {
    await stopChild(app.child);
    rmSync(dataDir, { recursive: true, force: true });
  }
});

test('a list checked live shows what happened to its addresses once bounces are read back', async ({
  page,
  hostUrl,
}) => {
  const liveKey = 'svc_live_outcomesE2E0123456789ab';
  const peer = await startSpecPeer({ apiKey: liveKey });
  try {
    await page.goto(hostUrl);
    await useHostedService(page, { baseUrl: peer.baseUrl, liveKey });
    await expect(page.getByTestId('account-badge')).toHaveText('Live', { timeout: 15_000 });
    await page.getByTestId('nav-clean').click();
    await cleanCsv(page, 'march.csv', 'email\nvalid.a@shop.example\nvalid.b@shop.example\ncatchall.c@shop.example\n');
    await expect(page.getByTestId('list-outcomes')).toHaveCount(0);

    await page.getByTestId('nav-history').click();
    await page.getByTestId('outcomes-file').setInputFiles({
      name: 'bounces.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from(
        `email,type,date\nvalid.b@shop.example,hard,${new Date(Date.now() + 60_000).toISOString()}\n`,
      ),
    });
    await expect(page.getByTestId('outcomes-notice')).toContainText('bounces.csv: 1 hard bounce');
    // A hosted service that keeps no outcomes (this one follows the spec alone) is offered no sharing.
    await expect(page.getByRole('button', { name: /Share outcomes with the team/ })).toHaveCount(0);
    await page.getByRole('button', { name: 'Open march.csv' }).click();
    await expect(page.getByTestId('list-outcomes')).toContainText(
      'What happened after the send: Of 2 addresses Sift called valid, 1 bounced (50%); of 1 catch-all, 0 bounced (0%).',
    );
    await page.screenshot({ path: 'test-results/screens/outcomes/list-results.png', fullPage: true });
  } finally {
    await peer.close();
  }
});

test('a catch-all domain’s sends move its addresses’ scores, and the explorer says by how many bounced', async ({
  page,
}) => {
  const dataDir = mkdtempSync(join(tmpdir(), 'sift-e2e-catch-all-'));
  // Sift called them all catch-all on 3 March (its verdict cache, as a list checked then leaves it).
  const bouncy = Array.from({ length: 12 }, (_, i) => `catchall.${i}@bouncy.example`);
  const steady = Array.from({ length: 200 }, (_, i) => `catchall.${i}@steady.example`);
  const key = cacheKeysOf(dataDir);
  const cache = openVerdictCache(dataDir);
  cache.remember('live', 'https://verify.example', Date.UTC(2026, 2, 3), [
    [...bouncy, ...steady].map((email) => [key(email), 'catch_all', 'accept_all_domain'] as const),
  ]);
  cache.close();
  // A campaign to all of them on 10 March, read back from Mailchimp's report: 4 of bouncy's 12 bounced hard.
  const chimp = await startMailchimp();
  const liveKey = 'svc_live_catchAllE2E0123456789a';
  const peer = await startSpecPeer({ apiKey: liveKey });
  try {
    const everyone = [...bouncy, ...steady];
    chimp.audiences.set('aud1', {
      name: 'Newsletter',
      members: new Map(
        everyone.map((email) => [
          subscriberHash(email),
          { email, name: '', status: 'subscribed', tags: new Set<string>(), lastChanged: '2026-01-01T00:00:00+00:00' },
        ]),
      ),
    });
    const recipients = new Map<string, 'sent' | 'hard' | 'soft'>(everyone.map((email) => [email, 'sent']));
    for (const email of bouncy.slice(0, 4)) recipients.set(email, 'hard');
    chimp.campaigns.set('c1', { list: 'aud1', sendTime: '2026-03-10T09:00:00+00:00', recipients });
    const env = { SIFT_DATA_DIR: dataDir, SIFT_MAILCHIMP_KEY: chimp.key };
    const connected = await runSift(['connect', 'mailchimp', '--name', 'shop', '--api-url', chimp.url], env);
    expect(connected.code, connected.stderr).toBe(0);
    const read = await runSift(['outcomes', 'read', 'shop', 'aud1'], env);
    expect(read.stdout).toContain('4 new hard bounces, 0 soft, 212 sends');

    const app = await startHost(dataDir);
    try {
      await page.goto(app.url);
      await useHostedService(page, { baseUrl: peer.baseUrl, liveKey });
      await expect(page.getByTestId('account-badge')).toHaveText('Live', { timeout: 15_000 });
      await page.getByTestId('nav-clean').click();
      await cleanCsv(
        page,
        'april.csv',
        'email\ncatchall.new@bouncy.example\ncatchall.new@steady.example\ncatchall.new@other.example\n',
      );
      await page.getByTestId('explorer-sort').selectOption('score_low');
      const rows = page.getByTestId('explorer-row');
      await expect(rows).toHaveCount(3);
      await expect(rows.nth(0)).toContainText('catchall.new@bouncy.example');
      await rows.nth(0).focus();
      const reasons = page.getByTestId('row-reasons');
      await expect(reasons).toContainText('score 30');
      await expect(reasons).toContainText('Catch-all at bouncy.example: 4 of 12 sends bounced since March 2026.');
      await rows.nth(2).focus();
      await expect(reasons).toContainText('score 70');
      await expect(reasons).toContainText('Catch-all at steady.example: 0 of 200 sends bounced since March 2026.');
      await rows.nth(1).focus();
      await expect(reasons).toContainText('score 55');
      await expect(reasons).not.toContainText('sends bounced');
      await rows.nth(0).focus();
      // The verdicts' chart drawn (it grows in) before the screens are shot.
      await expect(page.locator('.recharts-bar-rectangle path').first()).toBeVisible();
      for (const colorScheme of ['light', 'dark'] as const) {
        await page.emulateMedia({ colorScheme });
        await page.screenshot({ path: `test-results/screens/outcomes/catch-all-${colorScheme}.png`, fullPage: true });
      }
    } finally {
      await stopChild(app.child);
    }
  } finally {
    await Promise.all([peer.close(), chimp.close()]);
    rmSync(dataDir, { recursive: true, force: true });
  }
});
