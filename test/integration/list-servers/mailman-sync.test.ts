// A real Mailman 3 list cleaned and written back through `sift connect`, `sift audiences` and `sift sync`:
// the password checked at connect time and kept out of every file but the vault, nothing written without
// --write-back, then exactly the plan written (invalid members' delivery off, by moderator), a member the
// server no longer has refused in its words and listed beside the results, and every other member as it was;
// members whose delivery Mailman's bounce processing turned off read back as outcomes, once.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { VerificationService } from '../../../electron/core/service/verification-service.ts';
import { mailmanInstalled, startMailman, type MailmanServer } from '../../support/mailman-server.ts';
import { runSiftHere } from '../../support/run-sift-here.ts';
import { startTestService, syncTestEnv } from '../../support/service-harness.ts';

const required = process.env.SIFT_LIST_SERVERS === 'required';
if (required && !mailmanInstalled)
  throw new Error("SIFT_LIST_SERVERS=required, and Debian's mailman3 is not installed.");

const members = [
  'valid.ann@example.com',
  'invalid.bob@example.com',
  'valid.cat@example.org',
  'invalid.dee@example.org',
  'invalid.eve@example.net',
  'catchall.fay@example.net',
];

let mailman: MailmanServer;
let service: VerificationService;
let env: Record<string, string>;
/** Each member's id and delivery preference, by address, as Mailman holds them. */
let deliveries: () => Promise<Record<string, string>>;

beforeAll(async () => {
  if (!mailmanInstalled) return;
  [mailman, service] = await Promise.all([startMailman(), startTestService()]);
  expect((await mailman.rest('POST', '/domains', { mail_host: 'lists.test' })).status).toBe(201);
  expect((await mailman.rest('POST', '/lists', { fqdn_listname: 'news@lists.test' })).status).toBe(201);
  for (const email of members) {
    const added = await mailman.rest('POST', '/members', {
      list_id: 'news.lists.test',
      subscriber: email,
      pre_verified: 'true',
      pre_confirmed: 'true',
      pre_approved: 'true',
    });
    expect(added.status).toBe(201);
  }
  env = await syncTestEnv(service, 100, { SIFT_MAILMAN_PASSWORD: mailman.password });
  deliveries = async () => {
    const roster = await mailman.rest('GET', '/lists/news.lists.test/roster/member');
    const entries = (roster.body.entries ?? []) as { email: string; member_id: string }[];
    const each = await Promise.all(
      entries.map(async (entry) => {
        const preferences = await mailman.rest('GET', `/members/${entry.member_id}/preferences`);
        return [entry.email, String(preferences.body.delivery_status ?? 'enabled')] as const;
      }),
    );
    return Object.fromEntries(each);
  };
}, 90_000);

afterAll(async () => {
  await Promise.all([mailman?.stop(), service?.close()]);
}, 30_000);

describe.skipIf(!mailmanInstalled)('a Mailman 3 list', () => {
  it('is connected with a password checked there and then, kept only in the vault', async () => {
    const connect = (password: string) =>
      runSiftHere(['connect', 'mailman', '--name', 'lists', '--api-url', mailman.url, '--user', mailman.user], {
        ...env,
        SIFT_MAILMAN_PASSWORD: password,
      });
    const refused = await connect('not-the-password');
    expect(refused.code).toBe(3);
    expect(refused.stderr).toContain('refused the credentials (401)');
    expect(refused.stderr).not.toContain('not-the-password');
    const connected = await connect(mailman.password);
    expect(connected.code, connected.stderr).toBe(0);
    // Debian's Mailman 3, whichever release it ships (3.3.8 in Debian 12).
    expect(connected.stdout).toMatch(/GNU Mailman 3\.\d+\.\d+\b/);
    const listed = await runSiftHere(['connections', '--json'], env);
    expect(JSON.parse(listed.stdout)).toMatchObject([{ name: 'lists', kind: 'mailman', user: 'restadmin' }]);
    expect(listed.stdout).not.toContain(mailman.password);
    expect(await readFile(join(env.SIFT_DATA_DIR!, 'connectors.json'), 'utf8')).not.toContain(mailman.password);
    const audiences = await runSiftHere(['audiences', 'lists', '--json'], env);
    expect(JSON.parse(audiences.stdout)).toEqual([{ id: 'news.lists.test', name: 'news@lists.test', size: 6 }]);
  });

  it('plans without writing, then writes exactly the plan, and lists what the server refused', async () => {
    const before = await deliveries();
    expect(Object.values(before)).toEqual(members.map(() => 'enabled'));
    const planned = await runSiftHere(['sync', 'lists', 'news.lists.test', '--base-url', service.baseUrl], env);
    expect(planned.code, planned.stderr).toBe(0);
    expect(planned.stdout).toContain('Cleaned: 2 valid, 3 invalid, 1 catch-all, 0 unknown.');
    expect(planned.stdout).toContain('Plan: 3 members: delivery turned off by the list (by_moderator');
    expect(planned.stdout).toContain('run the same command with --write-back');
    expect(await deliveries()).toEqual(before);

    // Eve leaves the list between the plan and its writing: the server refuses her change.
    const roster = await mailman.rest('GET', '/lists/news.lists.test/roster/member');
    const eve = roster.body.entries!.find((entry) => entry.email === 'invalid.eve@example.net')!;
    expect((await mailman.rest('DELETE', `/members/${eve.member_id}`)).status).toBe(204);

    const account = await service.dashboard.account();
    const written = await runSiftHere(
      ['sync', 'lists', 'news.lists.test', '--base-url', service.baseUrl, '--write-back'],
      env,
    );
    expect(written.code).toBe(5);
    expect(written.stdout).toContain('Written: 2 changes.');
    expect(written.stdout).toContain('Refused by the tool: 1');
    // The plan written was the one shown: nothing read or checked again, nothing billed again.
    expect(await service.dashboard.account()).toEqual(account);
    expect(await deliveries()).toEqual({
      'valid.ann@example.com': 'enabled',
      'invalid.bob@example.com': 'by_moderator',
      'valid.cat@example.org': 'enabled',
      'invalid.dee@example.org': 'by_moderator',
      'catchall.fay@example.net': 'enabled',
    });
    const refusedFile = /with its words: (\S+)\)/.exec(written.stdout)![1]!;
    const refused = await readFile(refusedFile, 'utf8');
    expect(refused).toContain('invalid.eve@example.net');
    expect(refused).toContain('404');
  });

  it('never writes demo verdicts back', async () => {
    const before = await deliveries();
    const { SIFT_API_KEY: _live, ...demoEnv } = env;
    const demo = await runSiftHere(['sync', 'lists', 'news.lists.test', '--write-back'], demoEnv);
    expect(demo.code, demo.stderr).toBe(0);
    expect(demo.stdout).toContain('Nothing is written to Mailman: these are demo verdicts.');
    expect(await deliveries()).toEqual(before);
  });

  it('unsubscribes invalid members only when asked, in one write with the plan', async () => {
    expect((await mailman.rest('POST', '/lists', { fqdn_listname: 'club@lists.test' })).status).toBe(201);
    for (const subscriber of ['valid.gil@example.com', 'invalid.hal@example.com', 'invalid.ivy@example.org']) {
      const added = await mailman.rest('POST', '/members', {
        list_id: 'club.lists.test',
        subscriber,
        pre_verified: 'true',
        pre_confirmed: 'true',
        pre_approved: 'true',
      });
      expect(added.status).toBe(201);
    }
    const written = await runSiftHere(
      ['sync', 'lists', 'club.lists.test', '--base-url', service.baseUrl, '--write-back', '--unsubscribe-invalid'],
      env,
    );
    expect(written.code, written.stderr).toBe(0);
    expect(written.stdout).toContain('Plan: 2 members: unsubscribed from the list');
    expect(written.stdout).toContain('Written: 2 changes.');
    const roster = await mailman.rest('GET', '/lists/club.lists.test/roster/member');
    expect((roster.body.entries ?? []).map((entry) => entry.email)).toEqual(['valid.gil@example.com']);
  });

  it('reads back the members whose delivery bounces turned off, each once', async () => {
    const roster = await mailman.rest('GET', '/lists/news.lists.test/roster/member');
    const ann = roster.body.entries!.find((entry) => entry.email === 'valid.ann@example.com')!;
    const patched = await mailman.rest('PATCH', `/members/${ann.member_id}/preferences`, {
      delivery_status: 'by_bounces',
    });
    expect(patched.status).toBe(204);
    const read = await runSiftHere(['outcomes', 'read', 'lists', 'news.lists.test'], env);
    expect(read.code, read.stderr).toBe(0);
    expect(read.stdout).toContain(
      'lists:news.lists.test: 1 new hard bounce, 0 soft; 1 address is new on the do-not-mail list.',
    );
    const listed = JSON.parse((await runSiftHere(['outcomes', 'list', '--json'], env)).stdout);
    expect(listed).toMatchObject([
      {
        address: 'valid.ann@example.com',
        kind: 'hard',
        words: expect.stringContaining("delivery disabled by Mailman's bounce processing"),
      },
    ]);
    // Members whose delivery a moderator turned off (the plan above) are no bounces.
    expect(listed).toHaveLength(1);
    const again = await runSiftHere(['outcomes', 'read', 'lists', 'news.lists.test'], env);
    expect(again.stdout).toContain('lists:news.lists.test: 0 new hard bounces');
  });
});
