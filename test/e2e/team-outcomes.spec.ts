// Outcomes shared with the team's service: the app uses a hosted service that is Sift's own (run for a
// team, here on loopback); a teammate's Sift has sent it two hard bounces and a soft one. Nothing is shared
// until the person asks; Share brings them here, onto the do-not-mail list; from then on a bounce export
// brought in here, and a mailing tool's bounces read back, go to the service by themselves, where the
// teammate reads them; the teammate's catch-all counts come too, to weigh in this Sift's scores. Screenshots
// light and dark.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startMailchimp, subscriberHash } from '../support/mailchimp-server.ts';
import { runSift } from '../support/run-sift.ts';
import { startHostedService, useHostedService } from './hosted-service.ts';
import { expect, startHost, stopChild, test } from './web-host-fixture.ts';

test('the team’s bounces come here, and this Sift’s go to the team', async ({ page }) => {
  const dataDir = mkdtempSync(join(tmpdir(), 'sift-e2e-team-'));
  const service = await startHostedService();
  const key = service.liveKey;
  const api = (path: string, body?: unknown) =>
    fetch(`${service.baseUrl}${path}`, {
      method: body ? 'POST' : 'GET',
      headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
      ...(body ? { body: JSON.stringify(body) } : {}),
    }).then((response) => response.json());
  // What a teammate's Sift sent after reading its bounce mailbox.
  const teammate = (n: number, email: string, kind: string, reason: string) => ({
    id: `oteammate.box/${n}`,
    source: 'oteammate.box',
    email,
    kind,
    reason,
    at: '2026-03-10T08:00:00Z',
  });
  await api('/outcomes', {
    outcomes: [
      teammate(1, 'gone@shop.example', 'hard', 'mailbox does not exist'),
      teammate(2, 'left@shop.example', 'hard', 'mailbox does not exist'),
      teammate(3, 'full@shop.example', 'soft', 'mailbox full'),
    ],
  });
  // And its catch-all counts: 412 sends to addresses at acme.example it had called catch-all, none bounced.
  await api('/outcomes/catch-all', {
    origin: 'teammate',
    domains: [{ domain: 'acme.example', sent: 412, bounced: 0, since: '2026-09-01T00:00:00Z' }],
  });
  // A Mailchimp audience this Sift is connected to, where Mailchimp cleaned one member after a hard bounce.
  const chimp = await startMailchimp();
  chimp.audiences.set('aud1', {
    name: 'Newsletter',
    members: new Map(
      [
        ['kept@shop.example', 'subscribed'],
        ['cleaned@shop.example', 'cleaned'],
      ].map(([email, status]) => [
        subscriberHash(email!),
        { email: email!, name: '', status: status!, tags: new Set<string>(), lastChanged: '2026-03-12T00:00:00+00:00' },
      ]),
    ),
  });
  const connected = await runSift(['connect', 'mailchimp', '--name', 'shop', '--api-url', chimp.url], {
    SIFT_DATA_DIR: dataDir,
    SIFT_MAILCHIMP_KEY: chimp.key,
  });
  expect(connected.code, connected.stderr).toBe(0);
  const app = await startHost(dataDir);
  try {
    await page.goto(app.url);
    await useHostedService(page, { baseUrl: service.baseUrl, liveKey: key });
    await expect(page.getByTestId('account-badge')).toContainText('Live', { timeout: 15_000 });
    await page.getByTestId('nav-history').click();
    const host = new URL(service.baseUrl).host;
    const share = page.getByRole('button', { name: `Share outcomes with the team at ${host}` });
    await expect(page.getByTestId('team-shared')).toHaveText(
      'Sends what was read here, and brings back what teammates read. Nothing is shared until you ask once.',
    );
    await share.click();
    await expect(page.getByTestId('outcomes-notice')).toHaveText(
      `Shared with the team at ${host}: sent 0 outcomes; received 3 new outcomes from teammates (2 addresses new on the do-not-mail list), teammates' sends to 1 catch-all domain, weighed in the next clean's scores.`,
    );
    await expect(page.getByTestId('outcome-source')).toHaveText([`team at ${host} (teammates' reads)Forget…`]);
    await expect(page.getByTestId('team-shared')).toContainText('shared by itself from now on.');

    // Asked once: a bounce export brought in now goes to the team by itself.
    await page.getByTestId('outcomes-file').setInputFiles({
      name: 'esp-bounces.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from('email,type,date\nnew.gone@shop.example,hard,2026-03-12\n'),
    });
    await expect(page.getByTestId('outcomes-notice')).toContainText('esp-bounces.csv: 1 hard bounce');
    // The teammate's Sift reads it from the service.
    const seen = (await api('/outcomes')) as { data: { email: string }[] };
    expect(seen.data.map((row) => row.email)).toContain('new.gone@shop.example');
    await share.click();
    await expect(page.getByTestId('outcomes-notice')).toHaveText(
      `Shared with the team at ${host}: sent 0 outcomes; received 0 new outcomes from teammates (0 addresses new on the do-not-mail list), teammates' sends to 1 catch-all domain, weighed in the next clean's scores.`,
    );
    // Bounces read back from a mailing tool go to the team by themselves too.
    await page.getByTestId('nav-connections').click();
    await page.getByRole('button', { name: 'Lists of shop' }).click();
    await page.getByRole('button', { name: 'Read bounces of Newsletter' }).click();
    await expect(page.getByTestId('connections-notice')).toContainText('Newsletter: 1 new hard bounce');
    const after = (await api('/outcomes')) as { data: { email: string }[] };
    expect(after.data.map((row) => row.email)).toContain('cleaned@shop.example');
    await page.getByTestId('nav-history').click();
    for (const colorScheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme });
      await page.screenshot({ path: `test-results/screens/outcomes/team-${colorScheme}.png`, fullPage: true });
    }

    await page.getByTestId('nav-suppression').click();
    for (const address of ['gone@shop.example', 'left@shop.example', 'new.gone@shop.example'])
      await expect(page.getByTestId('suppression-table')).toContainText(address);
  } finally {
    await stopChild(app.child);
    await Promise.all([service.stop(), chimp.close()]);
    rmSync(dataDir, { recursive: true, force: true });
  }
});
