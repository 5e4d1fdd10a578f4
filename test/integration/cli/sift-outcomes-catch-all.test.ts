// A catch-all domain learned by its sends: addresses Sift called catch-all at two domains in March are sent a
// campaign (the project's Mailchimp test server, whose report names every recipient), a third of one
// domain's bounce and none of the other's; the next list checked scores the first domain's catch-all
// addresses down and the second's up, says the numbers behind each, and leaves a third domain alone.
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Papa from 'papaparse';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cacheKeysOf } from '../../../electron/core/cache/index.ts';
import { openVerdictCache } from '../../../electron/core/cache/verdict-cache-store.ts';
import { catchAllEvidenceWords } from '../../../electron/common/reason-words.ts';
import { openJobStore } from '../../../electron/core/jobs/store/index.ts';
import { openOutcomeStore } from '../../../electron/core/outcomes/index.ts';
import { teamShareStore } from '../../../electron/core/outcomes/team-share-store.ts';
import { startMailchimp, subscriberHash, type MailchimpServer } from '../../support/mailchimp-server.ts';
import { runSiftHere } from '../../support/run-sift-here.ts';
import { startTestService, syncTestEnv } from '../../support/service-harness.ts';
import type { VerificationService } from '../../../electron/core/service/verification-service.ts';

let chimp: MailchimpServer;
let service: VerificationService;
let dir: string;
let env: Record<string, string>;

beforeAll(async () => {
  [chimp, service] = await Promise.all([startMailchimp(), startTestService()]);
  dir = await mkdtemp(join(tmpdir(), 'sift-catch-all-learned-'));
  env = await syncTestEnv(service, 1000, { SIFT_DATA_DIR: join(dir, 'data'), SIFT_MAILCHIMP_KEY: chimp.key });
}, 60_000);
afterAll(async () => {
  await Promise.all([chimp?.close(), service?.close()]);
  if (dir) await rm(dir, { recursive: true, force: true });
});

/** The annotated rows of a list cleaned now. */
async function clean(name: string, addresses: string[]): Promise<Record<string, string>[]> {
  const list = join(dir, `${name}.csv`);
  await writeFile(list, `email\n${addresses.join('\n')}\n`);
  const out = join(dir, `${name}-out`);
  await mkdir(out);
  const run = await runSiftHere(['clean', list, '--base-url', service.baseUrl, '--out', out], env);
  expect(run.code, run.stderr).toBe(0);
  const csv = await readFile(join(out, `${name}.annotated.csv`), 'utf8');
  return Papa.parse<Record<string, string>>(csv.replace(/^\uFEFF/, ''), { header: true, skipEmptyLines: true }).data;
}

describe('a catch-all domain learned by its sends', () => {
  it('moves the next list’s catch-all scores by what bounced, with the numbers, and no other domain', async () => {
    const bouncy = Array.from({ length: 12 }, (_, i) => `catchall.${i}@bouncy.example`);
    const steady = Array.from({ length: 200 }, (_, i) => `catchall.${i}@steady.example`);
    // Sift called them all catch-all on 3 March (its verdict cache, as a list checked then leaves it).
    const key = cacheKeysOf(env.SIFT_DATA_DIR!);
    const cache = openVerdictCache(env.SIFT_DATA_DIR!);
    cache.remember('live', service.baseUrl, Date.UTC(2026, 2, 3), [
      [...bouncy, ...steady].map((email) => [key(email), 'catch_all', 'accept_all_domain'] as const),
    ]);
    cache.close();

    // A campaign to all of them after the check: 4 of bouncy.example's 12 bounce hard, none of steady's.
    const members = new Map(
      [...bouncy, ...steady].map((email) => [
        subscriberHash(email),
        { email, name: '', status: 'subscribed', tags: new Set<string>(), lastChanged: '2026-01-01T00:00:00+00:00' },
      ]),
    );
    chimp.audiences.set('aud1', { name: 'Newsletter', members });
    const recipients = new Map<string, 'sent' | 'hard' | 'soft'>(
      [...bouncy, ...steady].map((email) => [email, 'sent']),
    );
    for (const email of bouncy.slice(0, 4)) recipients.set(email, 'hard');
    const sendTime = '2026-03-10T09:00:00+00:00';
    chimp.campaigns.set('c1', { list: 'aud1', sendTime, recipients });
    expect((await runSiftHere(['connect', 'mailchimp', '--name', 'shop', '--api-url', chimp.url], env)).code).toBe(0);
    const read = await runSiftHere(['outcomes', 'read', 'shop', 'aud1'], env);
    expect(read.code, read.stderr).toBe(0);
    expect(read.stdout).toContain('4 new hard bounces, 0 soft, 212 sends');

    // A teammate's sends to steady.example, as the team's service last gave them (team-catch-all.ts).
    const outcomes = openOutcomeStore(env.SIFT_DATA_DIR!);
    const teamRead = teamShareStore(outcomes.database).teamCatchAllRead('https://sift.team.example');
    teamRead.begin();
    teamRead.page([{ domain: 'steady.example', sent: 100, bounced: 0, since: Date.UTC(2026, 1, 20), folders: 1 }]);
    teamRead.finish();
    outcomes.close();

    const rows = await clean('april', [
      'catchall.new@bouncy.example',
      'catchall.new@steady.example',
      'catchall.new@other.example',
    ]);
    expect(rows.map((row) => [row.email, row.sift_score, row.sift_score_reasons])).toEqual([
      ['catchall.new@bouncy.example', '30', 'catch_all=55;catch_all_bounces=-25'],
      ['catchall.new@steady.example', '70', 'catch_all=55;catch_all_delivers=15'],
      ['catchall.new@other.example', '55', 'catch_all=55'],
    ]);

    // The list keeps the evidence as it stood, with the words a row's reason gives.
    const store = openJobStore(env.SIFT_DATA_DIR!);
    const april = store.recentJobs(1)[0]!;
    const list = store.list(april.id);
    expect(list.catchAllEvidence.of('bouncy.example')).toMatchObject({
      sent: 12,
      bounced: 4,
      move: 'catch_all_bounces',
    });
    expect(list.catchAllEvidence.of('steady.example')).toMatchObject({
      sent: 300,
      bounced: 0,
      teamSent: 100,
      move: 'catch_all_delivers',
    });
    expect(list.catchAllEvidence.of('other.example')).toBeUndefined();
    expect(catchAllEvidenceWords(list.catchAllEvidence.of('steady.example')!)).toBe(
      "Catch-all at steady.example: 0 of 300 sends bounced since February 2026 (100 of them teammates').",
    );
    store.close();
  }, 120_000);
});
