// `sift outcomes share`: a bounce export read in one data folder reaches a teammate's through the team's
// service (Sift's own, on loopback), whose next clean keeps the hard bounce out unbilled (and `sift
// outcomes --list` then gives that list's own ledger); without a service to share with it says so.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { VerificationService } from '../../../electron/core/service/verification-service.ts';
import { openSuppressionStore } from '../../../electron/core/suppression/index.ts';
import { startMailchimp, subscriberHash, type ChimpMember } from '../../support/mailchimp-server.ts';
import { runSiftHere } from '../../support/run-sift-here.ts';
import { apiClient, startTestService } from '../../support/service-harness.ts';

let service: VerificationService;
let key: string;
const dirs: string[] = [];
beforeAll(async () => {
  service = await startTestService();
  key = (await service.dashboard.createKey('live', 'team')).key;
  await service.dashboard.topUp(100);
});
afterAll(async () => {
  await service.close();
  await Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true })));
});

async function folder() {
  const dir = await mkdtemp(join(tmpdir(), 'sift-share-cli-'));
  dirs.push(dir);
  return { dir, env: { SIFT_DATA_DIR: join(dir, 'data'), SIFT_API_KEY: key } };
}

describe('sift outcomes share', () => {
  it("sends one person's bounces to the team's service and brings them into a teammate's folder", async () => {
    const ann = await folder();
    const bob = await folder();
    const bounces = join(ann.dir, 'bounces.csv');
    await writeFile(bounces, 'email,type,date\ngone@shop.example,hard,2026-03-10\nfull@shop.example,soft,2026-03-10\n');
    expect((await runSiftHere(['outcomes', 'import', bounces], { SIFT_DATA_DIR: ann.env.SIFT_DATA_DIR })).code).toBe(0);

    const sent = await runSiftHere(['outcomes', 'share', '--base-url', service.baseUrl], ann.env);
    expect(sent.code, sent.stderr).toBe(0);
    expect(sent.stdout).toContain('Sent 2 outcomes; received 0 new from teammates');
    // A third teammate's Sift has shared its catch-all counts.
    const counts = { domain: 'acme.example', sent: 412, bounced: 0, since: '2026-09-01T00:00:00Z' };
    const posted = await apiClient(service, key)('POST', '/outcomes/catch-all', {
      origin: 'ocarol',
      domains: [counts],
    });
    expect(posted.status).toBe(200);
    const got = await runSiftHere(['outcomes', 'share', '--base-url', service.baseUrl], bob.env);
    expect(got.stdout).toContain(
      `Sent 0 outcomes; received 2 new from teammates (kept as "team at ${new URL(service.baseUrl).host}"). 1 address is new on the do-not-mail list.\n` +
        "Teammates' sends to 1 catch-all domain are weighed with yours in the next clean's scores.\n",
    );

    // Bob's next clean keeps the teammate's hard bounce out, and is not billed for it.
    const list = join(bob.dir, 'list.csv');
    await writeFile(list, 'email\ngone@shop.example\nok@shop.example\n');
    const clean = await runSiftHere(
      ['clean', list, '--base-url', service.baseUrl, '--out', bob.dir, '--json'],
      bob.env,
    );
    expect(clean.code, clean.stderr).toBe(0);
    const summary = JSON.parse(clean.stdout).summary;
    expect([summary.suppressed, summary.to_check, summary.billed]).toEqual([1, 1, 1]);

    // Then ok@ bounces after the clean: that list's own ledger says so, under the verdict the list gave it.
    const later = join(bob.dir, 'later.csv');
    await writeFile(later, `email,type,date\nok@shop.example,hard,${new Date(Date.now() + 60_000).toISOString()}\n`);
    expect((await runSiftHere(['outcomes', 'import', later], bob.env)).code).toBe(0);
    const job = JSON.parse(clean.stdout).job as string;
    const forList = await runSiftHere(['outcomes', '--list', job], bob.env);
    expect(forList.stdout).toContain('list.csv, checked on ');
    expect(forList.stdout).toContain('Of 1 address Sift called catch-all, 1 bounced (100%).');
    expect(forList.stdout).toMatch(/catch_all\s+1\s+1\s+0\s+0/);
    const asData = JSON.parse((await runSiftHere(['outcomes', '--list', job, '--json'], bob.env)).stdout);
    expect(asData).toMatchObject({
      list: job,
      file: 'list.csv',
      demo: false,
      byVerdict: [{ result: 'catch_all', hard: 1 }],
    });
    const unknown = await runSiftHere(['outcomes', '--list', 'job_nope'], bob.env);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('No list "job_nope" in this data folder (sift clean --json names it).');
  });

  it('shares again before each new sync once the folder has shared, and never before it was asked', async () => {
    const chimp = await startMailchimp();
    try {
      const members = new Map<string, ChimpMember>();
      for (const email of ['a@shop.example', 'b@shop.example', 'c@shop.example'])
        members.set(subscriberHash(email), { email, name: 'x', status: 'subscribed', tags: new Set() });
      chimp.audiences.set('team', { name: 'Team list', members });
      const ann = await folder();
      const bob = await folder();
      const bobEnv = { ...bob.env, SIFT_MAILCHIMP_KEY: chimp.key };
      expect((await runSiftHere(['connect', 'mailchimp', '--name', 'shop', '--api-url', chimp.url], bobEnv)).code).toBe(
        0,
      );
      const annBounces = async (email: string) => {
        const file = join(ann.dir, `${email}.csv`);
        await writeFile(file, `email,type,date\n${email},hard,2026-03-10\n`);
        await runSiftHere(['outcomes', 'import', file], ann.env);
        await runSiftHere(['outcomes', 'share', '--base-url', service.baseUrl], ann.env);
      };
      const sync = () => runSiftHere(['sync', 'shop', 'team', '--base-url', service.baseUrl, '--write-back'], bobEnv);
      const bobsList = () => {
        const list = openSuppressionStore(bob.env.SIFT_DATA_DIR);
        try {
          return list.page({ search: '', offset: 0, limit: 10 }).entries.map((entry) => entry.value);
        } finally {
          list.close();
        }
      };
      await annBounces('a@shop.example');
      // Bob never shared: his sync asks the team's service nothing.
      const first = await sync();
      expect(first.code, first.stderr).toBe(0);
      expect(first.stdout).not.toContain('Shared with the team');
      expect(bobsList()).toEqual([]);

      expect((await runSiftHere(['outcomes', 'share', '--base-url', service.baseUrl], bob.env)).code).toBe(0);
      await annBounces('b@shop.example');
      const second = await sync();
      expect(second.code, second.stderr).toBe(0);
      expect(second.stdout).toContain(
        `Shared with the team at ${new URL(service.baseUrl).host}: sent 0 outcomes, received 1; 1 address is new on the do-not-mail list and not checked.`,
      );
      // Everything the team had sent (gone@ is the first test's), now on Bob's list.
      expect(bobsList().sort()).toEqual(['a@shop.example', 'b@shop.example', 'gone@shop.example']);

      // Bob's own bounce export, brought in with the service at hand: shared by itself, and Ann has it next time.
      const bobs = join(bob.dir, 'bobs.csv');
      await writeFile(bobs, 'email,type,date\nc@shop.example,hard,2026-03-12\n');
      const imported = await runSiftHere(['outcomes', 'import', bobs], { ...bob.env, SIFT_BASE_URL: service.baseUrl });
      expect(imported.stdout).toContain(
        `Shared with the team at ${new URL(service.baseUrl).host}: sent 1 outcome, received 0;`,
      );
      const annGets = await runSiftHere(['outcomes', 'share', '--base-url', service.baseUrl], ann.env);
      expect(annGets.stdout).toContain('received 1 new from teammates');
    } finally {
      await chimp.close();
    }
  });

  it('says what it needs without a service, and sends nothing', async () => {
    const alone = await folder();
    const run = await runSiftHere(['outcomes', 'share'], { SIFT_DATA_DIR: alone.env.SIFT_DATA_DIR });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(
      "Sharing needs the team's service: give --base-url (or SIFT_BASE_URL) and its key in SIFT_API_KEY.",
    );
  });
});
