// Outcomes read back from a Mailchimp audience (the project's Mailchimp test server, mailchimp-reports.ts):
// its cleaned members over two pages and each sent campaign's recipients, hard and soft bounces and sends,
// kept beside Sift's live verdicts in the ledger; a second read asks only for what changed since, and
// reading never writes to the audience; a sync of the audience reads what bounced since first, and says so.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cacheKeysOf } from '../../../electron/core/cache/index.ts';
import { openVerdictCache } from '../../../electron/core/cache/verdict-cache-store.ts';
import {
  startMailchimp,
  subscriberHash,
  type ChimpMember,
  type MailchimpServer,
} from '../../support/mailchimp-server.ts';
import { runSiftHere } from '../../support/run-sift-here.ts';
import { startTestService, syncTestEnv } from '../../support/service-harness.ts';
import type { VerificationService } from '../../../electron/core/service/verification-service.ts';

let chimp: MailchimpServer;
let service: VerificationService;
let dir: string;
let env: Record<string, string>;
const checkedOn = Date.UTC(2026, 2, 3);

beforeAll(async () => {
  [chimp, service] = await Promise.all([startMailchimp(), startTestService()]);
  dir = await mkdtemp(join(tmpdir(), 'sift-outcomes-mailchimp-'));
  env = { SIFT_DATA_DIR: join(dir, 'data'), SIFT_MAILCHIMP_KEY: chimp.key };
  const members = new Map<string, ChimpMember>();
  const add = (email: string, status: string, lastChanged?: string) =>
    members.set(subscriberHash(email), {
      email,
      name: '',
      status,
      tags: new Set(),
      ...(lastChanged ? { lastChanged } : {}),
    });
  // 1,200 members Mailchimp cleaned in March: two pages of its most.
  for (let i = 0; i < 1200; i += 1) add(`gone${i}@old.example`, 'cleaned', '2026-03-20T10:00:00+00:00');
  for (let i = 0; i < 20; i += 1) add(`fine${i}@shop.example`, 'subscribed', '2026-01-01T00:00:00+00:00');
  chimp.audiences.set('aud1', { name: 'Newsletter', members });
  const recipients = new Map<string, 'sent' | 'hard' | 'soft'>();
  for (let i = 0; i < 20; i += 1) recipients.set(`fine${i}@shop.example`, 'sent');
  recipients.set('gone0@old.example', 'hard');
  recipients.set('fine3@shop.example', 'soft');
  chimp.campaigns.set('c1', { list: 'aud1', sendTime: '2026-03-10T09:00:00+00:00', recipients });
  chimp.campaigns.set('other', {
    list: 'aud2',
    sendTime: '2026-03-11T09:00:00+00:00',
    recipients: new Map([['x@y.example', 'hard']]),
  });
  // Sift called the 20 subscribed members and gone0 valid on 3 March.
  const key = cacheKeysOf(env.SIFT_DATA_DIR!);
  const cache = openVerdictCache(env.SIFT_DATA_DIR!);
  cache.remember('live', 'https://verify.example', checkedOn, [
    [...members.values()]
      .filter((m) => m.status === 'subscribed' || m.email === 'gone0@old.example')
      .map((m) => [key(m.email), 'valid', 'accepted_email'] as const),
  ]);
  cache.close();
}, 60_000);
afterAll(async () => {
  await Promise.all([chimp?.close(), service?.close()]);
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('sift outcomes read, from Mailchimp', () => {
  it('reads cleaned members and campaign bounces, then only what is new', async () => {
    expect((await runSiftHere(['connect', 'mailchimp', '--name', 'shop', '--api-url', chimp.url], env)).code).toBe(0);
    const first = await runSiftHere(['outcomes', 'read', 'shop', 'aud1'], env);
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout).toContain(
      'shop:aud1: 1,201 new hard bounces, 1 soft, 21 sends; 1,200 addresses are new on the do-not-mail list.',
    );
    const listed = JSON.parse((await runSiftHere(['outcomes', 'list', '--json'], env)).stdout) as {
      address: string;
      kind: string;
      words: string;
      at: number;
    }[];
    expect(listed.filter((row) => row.kind === 'hard')).toHaveLength(1201);
    expect(listed.find((row) => row.kind === 'soft')).toMatchObject({
      address: 'fine3@shop.example',
      words: 'campaign c1: soft bounce',
      at: Date.parse('2026-03-10T09:00:00Z'),
    });
    expect(listed.some((row) => row.address === 'x@y.example')).toBe(false);

    const ledger = JSON.parse((await runSiftHere(['outcomes', '--json'], env)).stdout);
    expect(ledger.sendsKnown).toBe(true);
    expect(ledger.byVerdict).toEqual([{ result: 'valid', checked: 21, sent: 21, hard: 1, soft: 1, refused: 0 }]);

    const again = await runSiftHere(['outcomes', 'read', 'shop', 'aud1'], env);
    expect(again.stdout).toContain('shop:aud1: 0 new hard bounces, 0 soft;');
    const audience = chimp.audiences.get('aud1')!.members;
    audience.get(subscriberHash('fine5@shop.example'))!.status = 'cleaned';
    audience.get(subscriberHash('fine5@shop.example'))!.lastChanged = new Date(Date.now() + 60_000).toISOString();
    chimp.campaigns.set('c2', {
      list: 'aud1',
      sendTime: new Date(Date.now() + 1000).toISOString(),
      recipients: new Map([['fine7@shop.example', 'hard']]),
    });
    const third = await runSiftHere(['outcomes', 'read', 'shop', 'aud1'], env);
    expect(third.stdout).toContain('shop:aud1: 2 new hard bounces, 0 soft, 1 send;');
    expect(chimp.writes).toEqual([]);
    const tool = await runSiftHere(['outcomes', 'read', 'shop'], env);
    expect(tool.code).toBe(2);
    expect(tool.stderr).toContain("is a mailing tool's connection: name its list too");
  }, 120_000);

  it('reads what bounced since first when the audience is synced, and keeps it out of the clean', async () => {
    chimp.campaigns.set('c3', {
      list: 'aud1',
      sendTime: new Date(Date.now() + 2000).toISOString(),
      recipients: new Map([['fine9@shop.example', 'hard']]),
    });
    const syncEnv = await syncTestEnv(service, 100, env);
    const synced = await runSiftHere(['sync', 'shop', 'aud1', '--base-url', service.baseUrl], syncEnv);
    expect(synced.code, synced.stderr).toBe(0);
    expect(synced.stdout).toContain(
      'Outcomes read first from Mailchimp: 1 new hard bounce, 0 soft; 1 address is new on the do-not-mail list and is not checked.',
    );
    // 20 subscribed members; fine5 was cleaned, fine7 and fine9 bounced: 17 checked.
    expect(synced.stderr).toContain('17 addresses to check');
    expect(chimp.writes).toEqual([]);
  }, 120_000);
});
