// Outcomes read back from HubSpot (the project's HubSpot test server, its search as hubspot-search.ts holds
// it): each contact's bounce facts, UNKNOWN_USER hard, MAILBOX_FULL soft, a reputation refusal kept apart,
// an invalid address with no reason hard; more than search's 10,000 results read by searching again from
// the last modification seen; a second read asks only for contacts changed since.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHubspot, type HubspotServer } from '../../support/hubspot-server.ts';
import { runSiftHere } from '../../support/run-sift-here.ts';

let hub: HubspotServer;
let dir: string;
let env: Record<string, string>;
const iso = (ms: number) => new Date(ms).toISOString();
const march = Date.UTC(2026, 2, 1);

beforeAll(async () => {
  hub = await startHubspot();
  dir = await mkdtemp(join(tmpdir(), 'sift-outcomes-hubspot-'));
  env = { SIFT_DATA_DIR: join(dir, 'data'), SIFT_HUBSPOT_TOKEN: hub.token };
  // 10,050 contacts that bounced hard, each modified a second apart: past search's cap of 10,000.
  for (let i = 0; i < 10_050; i += 1)
    hub.contacts.set(String(i + 1), {
      email: `gone${i}@old.example`,
      hs_email_hard_bounce_reason_enum: 'UNKNOWN_USER',
      hs_email_last_send_date: iso(march),
      lastmodifieddate: iso(march + i * 1000),
    });
  const more: Record<string, string>[] = [
    { email: 'full@shop.example', hs_email_hard_bounce_reason_enum: 'MAILBOX_FULL' },
    {
      email: 'blocked@shop.example',
      hs_email_hard_bounce_reason_enum: 'IP_REPUTATION',
      hs_email_hard_bounce_reason: '550 5.7.1 blocked using zen.spamhaus.org',
    },
    { email: 'bad@shop.example', hs_email_bad_address: 'true' },
    { email: 'fine@shop.example', hs_email_bad_address: 'false' },
  ];
  more.forEach((facts, i) =>
    hub.contacts.set(String(20_000 + i), { ...facts, lastmodifieddate: iso(march + 20_000_000 + i) }),
  );
}, 60_000);
afterAll(async () => {
  await hub?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('sift outcomes read, from HubSpot', () => {
  it('reads every contact’s bounce facts past search’s cap, then only what changed since', async () => {
    expect((await runSiftHere(['connect', 'hubspot', '--name', 'crm', '--api-url', hub.url], env)).code).toBe(0);
    const first = await runSiftHere(['outcomes', 'read', 'crm', 'all'], env);
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout).toContain(
      'crm:all: 10,051 new hard bounces, 1 soft, 1 not about the mailbox; 10,051 addresses are new on the do-not-mail list.',
    );
    const listed = JSON.parse(
      (await runSiftHere(['outcomes', 'list', '--search', 'shop.example', '--json'], env)).stdout,
    ) as {
      address: string;
      kind: string;
      words: string;
    }[];
    expect(listed.map(({ address, kind }) => [address, kind]).sort()).toEqual([
      ['bad@shop.example', 'hard'],
      ['blocked@shop.example', 'refused'],
      ['full@shop.example', 'soft'],
    ]);
    expect(listed.find((row) => row.kind === 'refused')!.words).toBe(
      'HubSpot: IP_REPUTATION: 550 5.7.1 blocked using zen.spamhaus.org',
    );
    expect(hub.updates).toEqual([]);

    hub.contacts.set('30000', {
      email: 'late@shop.example',
      hs_email_hard_bounce_reason_enum: 'UNKNOWN_USER',
      lastmodifieddate: iso(Date.now() + 60_000),
    });
    const again = await runSiftHere(['outcomes', 'read', 'crm', 'all'], env);
    expect(again.stdout).toContain('crm:all: 1 new hard bounce, 0 soft;');
  }, 180_000);
});
