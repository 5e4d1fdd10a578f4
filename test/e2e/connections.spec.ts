// A Mailchimp audience cleaned from the app's Mailing tools screen, against the project's Mailchimp test
// server (test/support/mailchimp-server.ts, with Mailchimp's documented rules) and a spec-only service with
// a live key: a refused key said in words and never shown, the audience read (only subscribed members) and
// opened as a list whose cost is shown before sending, the plan shown with nothing written, then exactly
// the plan written: one sift tag per member, invalid ones archived (ticked), the rest of the audience as it
// was. Screenshots light and dark, and axe-core finds nothing serious.
import { readFile } from 'node:fs/promises';
import { AxeBuilder } from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { startMailchimp, subscriberHash, type ChimpMember, type MailchimpServer } from '../support/mailchimp-server.ts';
import { startSpecPeer, type SpecPeer } from '../support/spec-peer.ts';
import { expect, test } from './web-host-fixture.ts';

const liveKey = 'svc_live_syncE2E0123456789abcdef';
let chimp: MailchimpServer;
let peer: SpecPeer;

test.beforeAll(async () => {
  [chimp, peer] = await Promise.all([startMailchimp(), startSpecPeer({ apiKey: liveKey })]);
  const members = new Map<string, ChimpMember>();
  const add = (email: string, status: string, tags: string[] = []) =>
    members.set(subscriberHash(email), { email, name: email.split('@')[0]!, status, tags: new Set(tags) });
  for (const kind of ['valid', 'invalid', 'catchall', 'unknown'])
    for (let i = 0; i < 3; i += 1) add(`${kind}.m${i}@shop${i}.example.com`, 'subscribed');
  // A tag of the person's own stays; an earlier sift tag is made inactive.
  members.get(subscriberHash('invalid.m0@shop0.example.com'))!.tags = new Set(['sift-valid', 'VIP']);
  // Not someone Mailchimp would mail: never read, never touched.
  add('invalid.gone@example.com', 'unsubscribed', ['VIP']);
  chimp.audiences.set('aud1', {
    name: 'Newsletter',
    members,
    segments: new Map([[71, { name: 'VIP', type: 'static' as const, members: new Set(members.keys()) }]]),
  });
});

test.afterAll(async () => {
  await Promise.all([chimp?.close(), peer?.close()]);
});

async function expectAccessible(page: Page) {
  const { violations } = await new AxeBuilder({ page }).analyze();
  expect(violations.filter((violation) => ['serious', 'critical'].includes(violation.impact ?? ''))).toEqual([]);
}

const audienceState = () =>
  Object.fromEntries(
    [...chimp.audiences.get('aud1')!.members].map(([id, member]) => [
      id,
      { status: member.status, tags: [...member.tags].sort() },
    ]),
  );

test('a Mailchimp audience is read, cleaned, planned and tagged from the Mailing tools screen', async ({
  page,
  hostUrl,
}) => {
  test.setTimeout(90_000);
  await page.goto(hostUrl);
  await page.getByTestId('nav-settings').click();
  await page.getByLabel('Service URL').fill(peer.baseUrl);
  await page.getByLabel('API key').fill(liveKey);
  await page.getByRole('button', { name: 'Test connection' }).click();
  await expect(page.getByTestId('connection-test')).toContainText('Connected with a live key.');
  await page.getByRole('button', { name: 'Save and use this service' }).click();
  // Saving asks the service for its account again: on a loaded machine that takes a while.
  await expect(page.getByTestId('current-service')).toContainText('(live key', { timeout: 15_000 });
  await expect(page.getByTestId('account-badge')).toHaveText('Live', { timeout: 15_000 });

  await page.getByTestId('nav-connections').click();
  await expect(page.getByRole('heading', { name: 'Mailing tools' })).toBeFocused();
  const connect = async (key: string) => {
    await page.getByLabel('Name (yours, for this connection)').fill('shop');
    await page.getByLabel('API key (ends in -us1, -us21, …)').fill(key);
    await page.getByLabel('API address (leave empty for the tool’s own)').fill(chimp.url);
    await page.getByRole('button', { name: 'Connect', exact: true }).click();
  };
  const wrongKey = `${'f'.repeat(32)}-us99`;
  await connect(wrongKey);
  await expect(page.getByRole('alert')).toContainText('refused the credentials (401)');
  await expect(page.locator('body')).not.toContainText('f'.repeat(32));
  await expect(page.getByText('No tool is connected yet.')).toBeVisible();
  await connect(chimp.key);
  await expect(page.getByTestId('connections-notice')).toHaveText(
    `Connected “shop” to Mailchimp: Mailchimp account Sift Test Shop at ${new URL(chimp.url).host}.`,
  );
  // The secret field is emptied and the key is nowhere on the page.
  await expect(page.getByLabel('API key (ends in -us1, -us21, …)')).toHaveValue('');
  expect(await page.content()).not.toContain(chimp.key);
  await page.getByRole('button', { name: 'Lists of shop' }).click();
  const audiences = page.getByTestId('audiences-table');
  await expect(audiences).toContainText('Newsletter');
  await expect(audiences).toContainText('12');

  // Read and opened as a list: its cost is shown, and nothing is sent before Start.
  await page.getByRole('button', { name: 'Read and clean Newsletter' }).click();
  await expect(page.getByTestId('start-button')).toHaveText('Clean 12 addresses');
  expect(peer.batches).toHaveLength(0);
  await page.getByTestId('start-button').click();
  await expect(page.getByTestId('result-status')).toContainText('Done', { timeout: 30_000 });

  await page.getByTestId('nav-connections').click();
  // Archiving is off until ticked.
  const archive = page.getByLabel('Also archive invalid members', { exact: false });
  await expect(archive).not.toBeChecked();
  await archive.check();
  // So are Sift's score fields, which only Mailchimp has.
  const scoreFields = page.getByLabel('Also write each score and its day in the fields SIFTSCORE and SIFTDATE', {
    exact: false,
  });
  await expect(scoreFields).not.toBeChecked();
  await scoreFields.check();
  await page.getByRole('button', { name: 'See the plan' }).click();
  const plan = page.getByTestId('sync-plan');
  await expect(plan).toContainText('3 members: the tag sift-valid');
  await expect(plan).toContainText('3 members: the tag sift-invalid');
  await expect(plan).toContainText('3 members: the tag sift-catch-all');
  await expect(plan).toContainText('3 members: the tag sift-unknown');
  await expect(plan).toContainText('3 members: archived (Mailchimp keeps the member');
  await expect(plan).toContainText('12 members: the score and the day in the fields SIFTSCORE and SIFTDATE');
  // What the plan never does, said without the "no member is removed" an archive would belie.
  await expect(plan).toContainText('Nothing else changes: no one is re-subscribed, and no one is deleted for good.');
  expect(chimp.writes).toEqual([]);
  for (const colorScheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme });
    await page.screenshot({ path: `test-results/screens/connections/plan-${colorScheme}.png`, fullPage: true });
  }
  await page.emulateMedia({ colorScheme: 'light' });
  await expectAccessible(page);

  const before = audienceState();
  // Mailchimp refuses one member's tag: said with its words, and every refusal saved as a CSV.
  const refusedMember = subscriberHash('valid.m1@shop1.example.com');
  chimp.failNext(`/3.0/lists/aud1/members/${refusedMember}/tags`, 404, 1);
  await page.getByTestId('write-back').click();
  await expect(page.getByTestId('sync-outcome')).toContainText('Written: 26 changes. Refused by Mailchimp: 1');
  await expect(page.getByTestId('connections-notice')).toHaveText(
    'Written: 26 changes. The tool refused 1 change; the next sync tries them again.',
  );
  await expect(page.getByTestId('sync-refused')).toContainText('valid.m1@shop1.example.com: “Mailchimp:');
  await page.screenshot({ path: 'test-results/screens/connections/written.png', fullPage: true });
  await page.getByTestId('save-refusals').click();
  const download = page.waitForEvent('download');
  await page.getByTestId('download-refusals').click();
  const refusals = await readFile((await (await download).path())!, 'utf8');
  expect(refusals.split('\n')[0]).toBe('email,member_id,change,refused_with');
  expect(refusals).toContain(`valid.m1@shop1.example.com,${refusedMember},tag:sift-valid,`);

  // Exactly the plan: each subscribed member has its verdict's one tag, the invalid ones are archived;
  // nothing else changed.
  const after = audienceState();
  const expected = structuredClone(before);
  for (const [id, member] of chimp.audiences.get('aud1')!.members) {
    if (before[id]!.status !== 'subscribed') continue;
    if (id === refusedMember) continue;
    const tag = `sift-${member.email.split('.')[0]!.replace('catchall', 'catch-all')}`;
    expected[id]!.tags = [...expected[id]!.tags.filter((each) => !each.startsWith('sift-')), tag].sort();
    if (tag === 'sift-invalid') expected[id]!.status = 'archived';
  }
  expect(after).toEqual(expected);
  expect(after[subscriberHash('invalid.m0@shop0.example.com')]).toEqual({
    status: 'archived',
    tags: ['VIP', 'sift-invalid'],
  });
  expect(after[subscriberHash('invalid.gone@example.com')]).toEqual({ status: 'unsubscribed', tags: ['VIP'] });
  // Each member read has its score in Sift's field; the one never read has none.
  const scores = [...chimp.audiences.get('aud1')!.members.values()].map((member) => member.fields?.SIFTSCORE);
  expect(scores.filter((score) => typeof score === 'number')).toHaveLength(12);
  expect(chimp.audiences.get('aud1')!.members.get(subscriberHash('invalid.gone@example.com'))!.fields).toBeUndefined();
  const tagWrites = chimp.writes.filter((write) => write.path.endsWith('/tags'));
  expect(tagWrites).toHaveLength(11);
  expect(tagWrites.every((write) => (write.body as { is_syncing?: boolean }).is_syncing === true)).toBe(true);

  // Synced again every week while Sift is open, invalid members archived too, only the VIP tag's members
  // read, its plans waiting to be written; then stopped.
  await page.getByRole('button', { name: 'Schedule Newsletter', exact: true }).click();
  const form = page.getByRole('form', { name: 'Schedule Newsletter' });
  await form.getByLabel('Sync Newsletter again').selectOption('every week');
  await form.getByLabel(/^Also archive invalid members/).check();
  await form.getByLabel('Only the members of').selectOption({ label: 'VIP (tag, 13)' });
  await page.screenshot({ path: 'test-results/screens/connections/schedule-form.png', fullPage: true });
  await form.getByRole('button', { name: 'Save schedule' }).click();
  await expect(page.getByTestId('connections-notice')).toHaveText(
    'shop · aud1 is synced every 7 days while Sift is open; each plan waits here to be written.',
  );
  await expect(page.getByTestId('schedules')).toContainText(
    'shop · aud1: every week, plans only, invalid members archived, reading its subscribed members of segment or tag 71; next',
  );
  await expect(form).toBeHidden();
  await page.screenshot({ path: 'test-results/screens/connections/scheduled.png', fullPage: true });
  await page.getByRole('button', { name: 'Stop syncing aud1 on a schedule' }).click();
  await expect(page.getByTestId('schedules')).toBeHidden();

  // Which members to read: Mailchimp's pending ones only when ticked, one of its tags if chosen.
  await page.getByRole('button', { name: 'Choose members of Newsletter' }).click();
  const members = page.getByRole('form', { name: 'Members of Newsletter to read' });
  await expect(members.getByLabel(/^Pending members too/)).not.toBeChecked();
  await members.getByLabel(/^Pending members too/).check();
  await members.getByLabel('Only the members of').selectOption({ label: 'VIP (tag, 13)' });
  for (const colorScheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme });
    await page.screenshot({ path: `test-results/screens/connections/members-${colorScheme}.png`, fullPage: true });
  }
  await page.emulateMedia({ colorScheme: 'light' });
  await expectAccessible(page);
  await members.getByRole('button', { name: 'Cancel' }).click();
  await expect(members).toBeHidden();
});

test('what bounced after a Mailchimp audience’s campaigns is read back from the Mailing tools screen', async ({
  page,
  hostUrl,
}) => {
  chimp.campaigns.set('c-e2e', {
    list: 'aud1',
    sendTime: '2026-03-10T09:00:00+00:00',
    recipients: new Map([
      ['valid.m0@shop0.example.com', 'sent'],
      ['invalid.m1@shop1.example.com', 'hard'],
      ['unknown.m2@shop2.example.com', 'soft'],
    ]),
  });
  await page.goto(hostUrl);
  await page.getByTestId('nav-connections').click();
  await page.getByLabel('Name (yours, for this connection)').fill('shop');
  await page.getByLabel('API key (ends in -us1, -us21, …)').fill(chimp.key);
  await page.getByLabel('API address (leave empty for the tool’s own)').fill(chimp.url);
  await page.getByRole('button', { name: 'Connect', exact: true }).click();
  await page.getByRole('button', { name: 'Lists of shop' }).click();
  const writesBefore = chimp.writes.length;
  await page.getByRole('button', { name: 'Read bounces of Newsletter' }).click();
  await expect(page.getByTestId('connections-notice')).toHaveText(
    "Newsletter: 1 new hard bounce, 1 soft bounce, 3 sends; 1 address new on the do-not-mail list. History shows how Sift's verdicts turned out.",
  );
  expect(chimp.writes.length).toBe(writesBefore);
  await page.getByRole('button', { name: 'Read bounces of Newsletter' }).click();
  await expect(page.getByTestId('connections-notice')).toHaveText(
    "Newsletter: 0 new hard bounces; 0 addresses new on the do-not-mail list. History shows how Sift's verdicts turned out.",
  );
  await page.getByTestId('nav-history').click();
  await expect(page.getByTestId('what-happened').getByTestId('outcome-source')).toHaveText([
    'shop:aud1 (Mailchimp)Forget…',
  ]);
  chimp.campaigns.delete('c-e2e');
});
