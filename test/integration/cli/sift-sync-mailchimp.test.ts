// A Mailchimp audience cleaned and tagged through `sift connect mailchimp`, `sift audiences` and `sift sync`,
// against the project's Mailchimp test server (mailchimp-server.ts, with Mailchimp's documented rules):
// only subscribed members read, a page of 1,000 at a time; nothing written without --write-back; then one
// sift tag per member, sent as a sync, at most Mailchimp's 10 calls at once, 429s and 5xx waited out; every other part
// of the audience (other members, other tags, statuses) exactly as it was.
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { VerificationService } from '../../../electron/core/service/verification-service.ts';
import {
  defaultFields,
  startMailchimp,
  subscriberHash,
  type ChimpMember,
  type MailchimpServer,
} from '../../support/mailchimp-server.ts';
import { verdictKinds as kinds } from '../../support/mailchimp-sync.ts';
import { runSift } from '../../support/run-sift.ts';
import { runSiftHere } from '../../support/run-sift-here.ts';
import { startTestService, syncTestEnv } from '../../support/service-harness.ts';

let chimp: MailchimpServer;
let service: VerificationService;
let env: Record<string, string>;

beforeAll(async () => {
  [chimp, service] = await Promise.all([startMailchimp(), startTestService()]);
  const members = new Map<string, ChimpMember>();
  const add = (email: string, status: string, tags: string[] = []) =>
    members.set(subscriberHash(email), { email, name: email.split('@')[0]!, status, tags: new Set(tags) });
  // 1,004 subscribed members over two pages, on 40 domains.
  for (let i = 0; i < 1004; i += 1) add(`${kinds[i % 4]![0]}.p${i}@d${i % 40}.example.com`, 'subscribed');
  // An earlier run's tag, and a tag of the person's own.
  members.get(subscriberHash('invalid.p1@d1.example.com'))!.tags = new Set(['sift-valid', 'VIP']);
  // People Mailchimp would not mail: never read, never touched.
  add('invalid.gone@example.com', 'unsubscribed', ['VIP']);
  add('invalid.bounced@example.com', 'cleaned');
  add('valid.pending@example.com', 'pending');
  chimp.audiences.set('aud1', { name: 'Newsletter', members });
  env = await syncTestEnv(service, 2200, { SIFT_MAILCHIMP_KEY: chimp.key });
});
afterAll(async () => {
  await Promise.all([chimp?.close(), service?.close()]);
});

/** The whole audience as the server holds it: every member's address, status and tags. */
const snapshot = () =>
  Object.fromEntries(
    [...chimp.audiences.get('aud1')!.members].map(([id, member]) => [
      id,
      { email: member.email, status: member.status, tags: [...member.tags].sort() },
    ]),
  );

it('connects with a key checked there and then, and names the audiences', async () => {
  const connect = (key: string) =>
    runSiftHere(['connect', 'mailchimp', '--name', 'shop', '--api-url', chimp.url], {
      ...env,
      SIFT_MAILCHIMP_KEY: key,
    });
  const refused = await connect(`${'f'.repeat(32)}-us99`);
  expect(refused.code).toBe(3);
  expect(refused.stderr).toContain('refused the credentials (401)');
  expect(refused.stderr).not.toContain('f'.repeat(32));
  const connected = await connect(chimp.key);
  expect(connected.code, connected.stderr).toBe(0);
  expect(connected.stdout).toContain('Mailchimp account Sift Test Shop');
  expect(connected.stdout + connected.stderr).not.toContain(chimp.key);
  const audiences = await runSiftHere(['audiences', 'shop', '--json'], env);
  expect(JSON.parse(audiences.stdout)).toEqual([{ id: 'aud1', name: 'Newsletter', size: 1004 }]);
});

it('plans, then tags every subscribed member with its one verdict, and changes nothing else', async () => {
  const before = snapshot();
  const sync = (...flags: string[]) =>
    runSiftHere(['sync', 'shop', 'aud1', '--base-url', service.baseUrl, '--keep', 'valid,catch_all', ...flags], env);
  const planned = await sync();
  expect(planned.code, planned.stderr).toBe(0);
  expect(planned.stderr).toContain('Read 1004 members of aud1.');
  expect(planned.stdout).toContain('Cleaned: 251 valid, 251 invalid, 251 catch-all, 251 unknown.');
  expect(planned.stdout).toContain('251 members: the tag sift-invalid (any other sift tag removed');
  expect(chimp.writes).toEqual([]);

  // Mailchimp says too many requests twice, then fails once: waited out and tried again.
  chimp.failNext('/3.0/lists/aud1/members/', 429, 2);
  chimp.failNext('/3.0/lists/aud1/members/', 503, 1);
  const written = await sync('--write-back');
  expect(written.code, written.stderr).toBe(0);
  expect(written.stdout).toContain('Written: 1004 changes.');
  expect(chimp.failedCalls()).toBe(3);
  expect(chimp.writes).toHaveLength(1004);
  expect(chimp.peakConnections()).toBeLessThanOrEqual(10);
  for (const write of chimp.writes) {
    expect(write.method).toBe('POST');
    expect(write.body).toMatchObject({ is_syncing: true });
    const tags = (write.body as { tags: { status: string }[] }).tags;
    expect(tags.filter((tag) => tag.status === 'active')).toHaveLength(1);
  }

  const after = snapshot();
  const expected = structuredClone(before);
  for (const [id, member] of Object.entries(expected)) {
    if (member.status !== 'subscribed') continue;
    const tag = kinds.find(([prefix]) => member.email.startsWith(`${prefix}.`))![1];
    member.tags = [...member.tags.filter((each) => !each.startsWith('sift-')), tag].sort();
    expected[id] = member;
  }
  expect(after).toEqual(expected);
  expect(after[subscriberHash('invalid.p1@d1.example.com')]!.tags).toEqual(['VIP', 'sift-invalid']);
});

it('syncs again on its schedule from the verdict cache, writing only what changed', async () => {
  const io = {
    out: (text: string) => void (said += text),
    err: () => undefined,
    interactive: false,
    env: { ...process.env, ...env },
  };
  let said = '';
  const scheduled = await runSiftHere(
    ['schedule', 'shop', 'aud1', '--every', '7d', '--write-back', '--base-url', service.baseUrl, '--keep', 'valid'],
    env,
  );
  expect(scheduled.code, scheduled.stderr).toBe(0);
  expect(scheduled.stdout).toContain('shop aud1 is synced every 7 days, its plan written back; first due');
  expect((await runSiftHere(['sync', '--due'], env)).stdout).toBe('Nothing is due.\n');
  const dueWithList = await runSiftHere(['sync', 'shop', 'aud1', '--due'], env);
  expect(dueWithList.code).toBe(2);
  expect(dueWithList.stderr).toContain('--due runs every due schedule: give no list.');

  // A new subscriber: a week later, only the newcomer is checked and written.
  const members = chimp.audiences.get('aud1')!.members;
  members.set(subscriberHash('invalid.new@d3.example.com'), {
    email: 'invalid.new@d3.example.com',
    name: 'new',
    status: 'subscribed',
    tags: new Set(),
  });
  const account = await service.dashboard.account();
  const writesBefore = chimp.writes.length;
  const { runDue } = await import('../../../electron/cli/schedule-command.ts');
  expect(await runDue(io, Date.now() + 8 * 86_400_000), said).toBe(0);
  expect(said).toContain('Due: shop aud1');
  expect(said).toContain('1004 members have what the verdict calls for from an earlier sync: left as they are.');
  expect(said).toContain('Written: 1 change.');
  expect(chimp.writes.slice(writesBefore).map((write) => write.path)).toEqual([
    `/3.0/lists/aud1/members/${subscriberHash('invalid.new@d3.example.com')}/tags`,
  ]);
  // One address checked and billed: the rest came from the verdict cache.
  const after = await service.dashboard.account();
  expect(account.balance - after.balance).toBe(1);
  const listed = await runSiftHere(['schedule'], env);
  expect(listed.stdout).toMatch(/shop aud1: every 7 days, written back; next .* last .*: done/);
  expect((await runSiftHere(['schedule', 'shop', 'aud1', '--off'], env)).code).toBe(0);
  expect((await runSiftHere(['schedule', 'shop', 'aud1', '--off'], env)).stderr).toContain('has no schedule');
});

it('goes on after a kill part way through writing: every member tagged, none lost, none sent twice', async () => {
  const members = new Map<string, ChimpMember>();
  for (let i = 0; i < 600; i += 1) {
    const email = `${kinds[i % 4]![0]}.k${i}@k${i % 20}.example.com`;
    members.set(subscriberHash(email), { email, name: `k${i}`, status: 'subscribed', tags: new Set() });
  }
  chimp.audiences.set('aud2', { name: 'Kill', members });
  const args = ['sync', 'shop', 'aud2', '--base-url', service.baseUrl, '--write-back'];
  const writesTo = (audience: string) =>
    chimp.writes.filter((write) => write.path.startsWith(`/3.0/lists/${audience}/`));
  const run = runSift(args, env);
  for (const started = Date.now(); writesTo('aud2').length < 200 && Date.now() - started < 60_000;)
    await new Promise((resolve) => setTimeout(resolve, 5));
  run.child.kill('SIGKILL');
  expect((await run).signal).toBe('SIGKILL');
  const atKill = writesTo('aud2').length;
  expect(atKill).toBeGreaterThanOrEqual(200);
  expect(atKill).toBeLessThan(600);

  const resumed = await runSiftHere(args, env);
  expect(resumed.code, resumed.stderr).toBe(0);
  expect(resumed.stderr).toContain('Going on with the sync of aud2');
  for (const member of members.values()) {
    const tag = kinds.find(([prefix]) => member.email.startsWith(`${prefix}.`))![1];
    expect([...member.tags]).toEqual([tag]);
  }
  // Each member's tag sent once; only the calls in flight when the process died (at most 10) went again.
  const sends = new Map<string, number>();
  for (const write of writesTo('aud2')) sends.set(write.path, (sends.get(write.path) ?? 0) + 1);
  expect(sends.size).toBe(600);
  expect([...sends.values()].filter((count) => count > 1).length).toBeLessThanOrEqual(10);
});

it('refuses a key without its data centre at connect time, in words', async () => {
  const refused = await runSiftHere(['connect', 'mailchimp', '--name', 'nodc'], {
    ...env,
    SIFT_MAILCHIMP_KEY: 'f'.repeat(32),
  });
  expect(refused.code).toBe(3);
  expect(refused.stderr).toContain('ends in its data centre, such as -us21');
});

it('forgets a connection with its secret and its schedules', async () => {
  expect((await runSiftHere(['schedule', 'shop', 'aud2', '--every', '1d'], env)).code).toBe(0);
  const secretFile = join(env.SIFT_DATA_DIR!, 'keys', 'connector_shop.key');
  expect(existsSync(secretFile)).toBe(true);
  const removed = await runSiftHere(['connections', 'remove', 'shop'], env);
  expect(removed.stdout).toBe('Removed "shop", its secret and its schedule.\n');
  expect(existsSync(secretFile)).toBe(false);
  expect((await runSiftHere(['schedule'], env)).stdout).toContain('No schedules');
  expect((await runSiftHere(['connections', '--json'], env)).stdout).toBe('[]\n');
  const gone = await runSiftHere(['sync', 'shop', 'aud2'], env);
  expect(gone.code).toBe(2);
  expect(gone.stderr).toContain('No connection named "shop"');
});

it('says with --plan what a run would check and write, sending and writing nothing', async () => {
  const members = new Map<string, ChimpMember>();
  // Four new addresses, and two an earlier sync checked (the verdict cache knows them).
  const emails = ['valid.q1@q.example.com', 'valid.q2@q.example.com', 'invalid.q3@q.example.com'];
  for (const email of [...emails, 'unknown.q4@q.example.com', 'valid.p0@d0.example.com', 'invalid.p1@d1.example.com'])
    members.set(subscriberHash(email), { email, name: '', status: 'subscribed', tags: new Set() });
  chimp.audiences.set('aud3', { name: 'Plan', members });
  // Connected again: the test before forgot the connection.
  const connected = await runSiftHere(['connect', 'mailchimp', '--name', 'shop', '--api-url', chimp.url], env);
  expect(connected.code, connected.stderr).toBe(0);
  const account = await service.dashboard.account();
  const writesBefore = chimp.writes.length;
  const sync = (...flags: string[]) =>
    runSiftHere(['sync', 'shop', 'aud3', '--base-url', service.baseUrl, ...flags], env);

  const plan = await sync('--plan');
  expect(plan.code, plan.stderr).toBe(0);
  expect(plan.stdout).toContain('4 addresses to check');
  expect(plan.stdout).toContain('2 known from earlier lists (the verdict cache): not sent, free.');
  expect(plan.stdout).toContain('Nothing was sent or written (--plan).');
  expect(plan.stdout).toContain('the tag sift-invalid');
  expect((await service.dashboard.account()).balance).toBe(account.balance);
  expect(await runSiftHere(['sync', 'shop', 'aud3', '--plan', '--write-back'], env)).toMatchObject({ code: 2 });

  // The run goes on from the list the plan read and priced: the four are checked once, three billed (an
  // unknown verdict is not).
  const cleaned = await sync();
  expect(cleaned.code, cleaned.stderr).toBe(0);
  expect(cleaned.stderr).toContain('Going on with the sync of aud3');
  expect(cleaned.stdout).toContain('Plan: ');
  expect(account.balance - (await service.dashboard.account()).balance).toBe(3);

  const waiting = await sync('--plan');
  expect(waiting.code, waiting.stderr).toBe(0);
  expect(waiting.stdout).toMatch(
    /^Plan waiting for --write-back: 2 members: the tag sift-invalid .*; 1 member: the tag sift-unknown .*; 3 members: the tag sift-valid /,
  );
  expect(chimp.writes.length).toBe(writesBefore);
  expect(account.balance - (await service.dashboard.account()).balance).toBe(3);
});

it('archives invalid members only when asked, at the plan and again at the writing', async () => {
  const members = new Map<string, ChimpMember>();
  for (const email of ['valid.r1@r.example.com', 'invalid.r2@r.example.com', 'invalid.r3@r.example.com'])
    members.set(subscriberHash(email), { email, name: '', status: 'subscribed', tags: new Set() });
  members.set(subscriberHash('invalid.r4@r.example.com'), {
    email: 'invalid.r4@r.example.com',
    name: '',
    status: 'cleaned',
    tags: new Set(),
  });
  // Pending: read when asked for, tagged, never archived (Mailchimp refuses it, 405).
  members.set(subscriberHash('invalid.r5@r.example.com'), {
    email: 'invalid.r5@r.example.com',
    name: '',
    status: 'pending',
    tags: new Set(),
  });
  chimp.audiences.set('aud4', { name: 'Archive', members });
  const sync = (...flags: string[]) =>
    runSiftHere(['sync', 'shop', 'aud4', '--base-url', service.baseUrl, '--include', 'pending', ...flags], env);
  expect((await sync('--unsubscribe-invalid')).stderr).toContain(
    "--unsubscribe-invalid: Mailchimp's step for invalid members is --archive-invalid.",
  );

  const planned = await sync('--archive-invalid');
  expect(planned.code, planned.stderr).toBe(0);
  expect(planned.stdout).toMatch(/2 members: archived \(Mailchimp keeps the member/);
  expect(planned.stdout).toContain('Nothing else changes: no one is re-subscribed, and no one is deleted for good.');
  const unasked = await sync('--write-back');
  expect(unasked.code).toBe(2);
  expect(unasked.stderr).toContain('The plan waiting has 2 invalid members archived');
  expect(unasked.stderr).toContain('give --archive-invalid again to write it');

  const writesBefore = chimp.writes.length;
  const written = await sync('--write-back', '--archive-invalid');
  expect(written.code, written.stderr).toBe(0);
  expect(written.stdout).toContain('Written: 6 changes.');
  expect(written.stdout).not.toContain('Refused');
  const state = Object.fromEntries(
    [...members.values()].map((member) => [member.email, [member.status, ...member.tags]]),
  );
  expect(state).toEqual({
    'valid.r1@r.example.com': ['subscribed', 'sift-valid'],
    'invalid.r2@r.example.com': ['archived', 'sift-invalid'],
    'invalid.r3@r.example.com': ['archived', 'sift-invalid'],
    // Not someone Mailchimp would mail: never read, so never archived.
    'invalid.r4@r.example.com': ['cleaned'],
    'invalid.r5@r.example.com': ['pending', 'sift-invalid'],
  });
  // Each invalid member tagged before it was archived; nothing else written.
  const order = chimp.writes
    .slice(writesBefore)
    .map((write) => `${write.method} ${write.path.split('/').slice(-2).join('/')}`);
  for (const email of ['invalid.r2@r.example.com', 'invalid.r3@r.example.com']) {
    const hash = subscriberHash(email);
    expect(order.indexOf(`POST ${hash}/tags`)).toBeLessThan(order.indexOf(`DELETE members/${hash}`));
  }
  expect(order).toHaveLength(6);
});

it('writes each member its changes in the planned order across pages: tagged, then archived', async () => {
  // One valid member, then 52 invalid ones: 105 changes, so the second page of 100 begins with the archive of
  // the member whose tag closed the first.
  const members = new Map<string, ChimpMember>();
  for (const email of [
    'valid.o0@o.example.com',
    ...Array.from({ length: 52 }, (_, i) => `invalid.o${i + 1}@o.example.com`),
  ])
    members.set(subscriberHash(email), { email, name: '', status: 'subscribed', tags: new Set() });
  chimp.audiences.set('aud9', { name: 'Order', members });
  const writesBefore = chimp.writes.length;
  const written = await runSiftHere(
    ['sync', 'shop', 'aud9', '--base-url', service.baseUrl, '--archive-invalid', '--write-back'],
    env,
  );
  expect(written.code, written.stderr).toBe(0);
  expect(written.stdout).toContain('Written: 105 changes.');
  const order = chimp.writes.slice(writesBefore).map((write) => `${write.method} ${write.path}`);
  expect(order).toHaveLength(105);
  for (const [hash, member] of members) {
    const tagged = order.indexOf(`POST /3.0/lists/aud9/members/${hash}/tags`);
    expect(tagged, member.email).toBeGreaterThanOrEqual(0);
    if (member.email.startsWith('valid.')) continue;
    expect(order.indexOf(`DELETE /3.0/lists/aud9/members/${hash}`), member.email).toBeGreaterThan(tagged);
    expect([member.status, ...member.tags]).toEqual(['archived', 'sift-invalid']);
  }
});

it('tags sift-risky a verdict kept only from a score the member did not reach', async () => {
  const members = new Map<string, ChimpMember>();
  for (const email of ['valid.s1@s.example.com', 'catchall.s2@s.example.com', 'catchall.s3@s.example.com'])
    members.set(subscriberHash(email), { email, name: '', status: 'subscribed', tags: new Set() });
  // An earlier sync's tag: made inactive as the one sift tag changes.
  members.get(subscriberHash('catchall.s3@s.example.com'))!.tags = new Set(['sift-catch-all']);
  chimp.audiences.set('aud5', { name: 'Risky', members });
  const written = await runSiftHere(
    ['sync', 'shop', 'aud5', '--base-url', service.baseUrl, '--keep', 'valid,catch_all:99', '--write-back'],
    env,
  );
  expect(written.code, written.stderr).toBe(0);
  expect(written.stdout).toContain('2 members: the tag sift-risky');
  const tags = Object.fromEntries([...members.values()].map((member) => [member.email, [...member.tags]]));
  expect(tags).toEqual({
    'valid.s1@s.example.com': ['sift-valid'],
    'catchall.s2@s.example.com': ['sift-risky'],
    'catchall.s3@s.example.com': ['sift-risky'],
  });
});

it('reads pending and transactional members only when asked, and only the segment or tag chosen', async () => {
  const members = new Map<string, ChimpMember>();
  const statuses = {
    'valid.c1@c.example.com': 'subscribed',
    'valid.c2@c.example.com': 'pending',
    'valid.c3@c.example.com': 'transactional',
    'valid.c4@c.example.com': 'unsubscribed',
    'valid.c5@c.example.com': 'cleaned',
    'valid.c6@c.example.com': 'archived',
  };
  for (const [email, status] of Object.entries(statuses))
    members.set(subscriberHash(email), { email, name: '', status, tags: new Set() });
  const hashes = (...numbers: number[]) => new Set(numbers.map((n) => subscriberHash(`valid.c${n}@c.example.com`)));
  chimp.audiences.set('aud6', {
    name: 'Choices',
    members,
    segments: new Map([
      [301, { name: 'Openers', type: 'saved' as const, members: hashes(1, 2, 3, 4) }],
      [302, { name: 'VIP', type: 'static' as const, members: hashes(1) }],
    ]),
  });
  const listed = await runSiftHere(['audiences', 'shop', 'aud6', '--json'], env);
  expect(JSON.parse(listed.stdout)).toEqual([
    { id: '301', name: 'Openers', kind: 'segment', size: 4 },
    { id: '302', name: 'VIP', kind: 'tag', size: 1 },
  ]);
  const sync = (...flags: string[]) =>
    runSiftHere(['sync', 'shop', 'aud6', '--base-url', service.baseUrl, ...flags], env);

  expect((await sync('--include', 'unsubscribed')).stderr).toContain(
    '--include takes pending and transactional (comma-separated), not unsubscribed',
  );
  const wider = await sync('--plan', '--include', 'pending,transactional');
  expect(wider.code, wider.stderr).toBe(0);
  expect(wider.stderr).toContain('Read 3 members of aud6 (subscribed, pending and transactional members).');
  // The read waiting is of those members: another choice is refused until --restart.
  const other = await sync('--plan');
  expect(other.code).toBe(2);
  expect(other.stderr).toContain('The unfinished sync of this list reads its subscribed, pending and transactional');

  const before = chimp.writes.length;
  const segment = await sync('--restart', '--segment', '301', '--include', 'pending', '--write-back');
  expect(segment.code, segment.stderr).toBe(0);
  // Of the segment: the subscribed and the pending member; not its transactional or unsubscribed ones.
  expect(segment.stderr).toContain('Read 2 members of aud6 (subscribed and pending members of segment or tag 301).');
  const tagged = [...members.values()].filter((member) => member.tags.size > 0).map((member) => member.email);
  expect(tagged.sort()).toEqual(['valid.c1@c.example.com', 'valid.c2@c.example.com']);
  expect(chimp.writes.length - before).toBe(2);
});

it("writes each score and its day in fields of Sift's own only when asked, where there is room, never in yours", async () => {
  const audience = (id: string, fields: { tag: string; name: string; type: string; required?: boolean }[]) => {
    const members = new Map<string, ChimpMember>();
    for (const email of [`valid.${id}@f.example.com`, `invalid.${id}@f.example.com`])
      members.set(subscriberHash(email), {
        email,
        name: '',
        status: 'subscribed',
        tags: new Set(),
        fields: { FNAME: 'Ann' },
      });
    chimp.audiences.set(id, { name: id, members, mergeFields: [...defaultFields(), ...fields] });
    return members;
  };
  // A required field of the person's own that no member has filled: Sift's writes must not be refused for it.
  const members = audience('aud7', [{ tag: 'COMPANY', name: 'Company', type: 'text', required: true }]);
  const sync = (id: string, ...flags: string[]) =>
    runSiftHere(['sync', 'shop', id, '--base-url', service.baseUrl, ...flags], env);
  const planned = await sync('aud7', '--merge-fields');
  expect(planned.code, planned.stderr).toBe(0);
  expect(planned.stdout).toContain('2 members: the score and the day in the fields SIFTSCORE and SIFTDATE');
  expect((await sync('aud7', '--write-back')).stderr).toContain(
    "The plan waiting has 2 members' score and day to write in Sift's fields: give --merge-fields again",
  );
  const written = await sync('aud7', '--write-back', '--merge-fields');
  expect(written.code, written.stderr).toBe(0);
  expect(written.stdout).toContain('Written: 4 changes.');
  const fields = chimp.audiences.get('aud7')!.mergeFields!;
  expect(fields.slice(-2)).toMatchObject([
    { tag: 'SIFTSCORE', name: 'Sift score', type: 'number', required: false, public: false },
    {
      tag: 'SIFTDATE',
      name: 'Sift scored on',
      type: 'date',
      required: false,
      public: false,
      options: { date_format: 'MM/DD/YYYY' },
    },
  ]);
  const valid = members.get(subscriberHash('valid.aud7@f.example.com'))!.fields!;
  const invalid = members.get(subscriberHash('invalid.aud7@f.example.com'))!.fields!;
  // The day in the field's own format (MM/DD/YYYY), the score as the table gives it: valid 90, invalid 0.
  const day = new Date().toISOString().replace(/^(\d{4})-(\d\d)-(\d\d).*$/, '$2/$3/$1');
  expect(valid).toEqual({ FNAME: 'Ann', SIFTSCORE: 90, SIFTDATE: day });
  expect(invalid).toEqual({ FNAME: 'Ann', SIFTSCORE: 0, SIFTDATE: day });
  // Again, from the verdict cache: the fields are found, not made again; no tag is sent twice; only a score
  // that changed is written (a verdict from the cache scores its age).
  // The valid member's verdict, reused from the cache, scores its age: 85 (the `reused` move, -5); the
  // invalid one's stays 0 and is not written again.
  const writesBefore = chimp.writes.length;
  const again = await sync('aud7', '--write-back', '--merge-fields');
  expect(again.code, again.stderr).toBe(0);
  expect(chimp.writes.slice(writesBefore)).toEqual([
    {
      method: 'PATCH',
      path: `/3.0/lists/aud7/members/${subscriberHash('valid.aud7@f.example.com')}`,
      body: { merge_fields: { SIFTSCORE: 85, SIFTDATE: day } },
    },
  ]);

  // A SIFTSCORE the person made: never written; the tags are.
  audience('aud8', [{ tag: 'SIFTSCORE', name: 'Lead score', type: 'number' }]);
  const foreign = await sync('aud8', '--write-back', '--merge-fields');
  expect(foreign.stdout).toContain('Written: 2 changes.');
  expect(foreign.stdout).toContain('Refused by the tool: 2');
  const refusals = await readFile(/with its words: (.+\.refused\.csv)\)/.exec(foreign.stdout)![1]!, 'utf8');
  expect(refusals).toContain('The audience has a field SIFTSCORE Sift did not make (""Lead score"", number)');
  const aud8Writes = chimp.writes.filter((write) => write.path.includes('/aud8/'));
  expect(aud8Writes.every((write) => write.method === 'POST' && write.path.endsWith('/tags'))).toBe(true);

  // No room: 30 fields already; Mailchimp's refusal said, the tags written.
  audience(
    'aud9',
    Array.from({ length: 26 }, (_, i) => ({ tag: `F${i}`, name: `Field ${i}`, type: 'text' })),
  );
  const full = await sync('aud9', '--write-back', '--merge-fields');
  expect(full.stdout).toContain('Written: 2 changes.');
  expect(full.stdout).toContain('Refused by the tool: 2');
  expect(full.stdout).not.toContain('Written: 4');
  expect(chimp.audiences.get('aud9')!.mergeFields).toHaveLength(30);
  const fullRefusals = await readFile(/with its words: (.+\.refused\.csv)\)/.exec(full.stdout)![1]!, 'utf8');
  expect(fullRefusals).toContain('Mailchimp would not make the field SIFTSCORE (an audience has room for 30 fields');
});

it('misses no member when people leave and join the audience while it is read', async () => {
  const members = new Map<string, ChimpMember>();
  const add = (email: string) =>
    members.set(subscriberHash(email), { email, name: '', status: 'subscribed', tags: new Set() });
  for (let i = 0; i < 2100; i += 1) add(`valid.m${i}@moving.example.com`);
  chimp.audiences.set('aud10', { name: 'Moving', members });
  // After the first page: five people of that page unsubscribe (the rest move back five places) and two
  // join; after the second, three more of the first page leave.
  const leave = (from: number, count: number) =>
    [...members.values()].slice(from, from + count).forEach((member) => (member.status = 'unsubscribed'));
  chimp.afterMembersPage = (audience, offset) => {
    if (audience !== 'aud10') return;
    if (offset === 0) {
      leave(10, 5);
      add('valid.joined1@moving.example.com');
      add('valid.joined2@moving.example.com');
    } else if (offset < 1000) leave(20, 3);
  };
  try {
    const read = await runSiftHere(['sync', 'shop', 'aud10', '--base-url', service.baseUrl, '--plan'], env);
    expect(read.code, read.stderr).toBe(0);
    // Everyone subscribed when the read began, and the two who joined: none missed, none twice.
    expect(read.stderr).toContain('Read 2102 members of aud10.');
  } finally {
    chimp.afterMembersPage = undefined;
  }
});

it('writes nothing back from demo verdicts, even with --write-back', async () => {
  const members = new Map<string, ChimpMember>();
  for (const email of ['valid.demo1@demo.example.com', 'invalid.demo2@demo.example.com'])
    members.set(subscriberHash(email), { email, name: '', status: 'subscribed', tags: new Set(['VIP']) });
  chimp.audiences.set('aud10', { name: 'Demo', members });
  const writesBefore = chimp.writes.length;
  // No key and no service: Sift's own service with demo verdicts, which no mail server gave.
  const run = await runSiftHere(['sync', 'shop', 'aud10', '--write-back', '--archive-invalid'], {
    ...env,
    SIFT_API_KEY: undefined,
  });
  expect(run.code, run.stderr).toBe(0);
  expect(run.stdout).toContain('Nothing is written to Mailchimp: these are demo verdicts.');
  expect(chimp.writes.length).toBe(writesBefore);
  expect([...members.values()].map((member) => [member.email, member.status, [...member.tags]])).toEqual([
    ['valid.demo1@demo.example.com', 'subscribed', ['VIP']],
    ['invalid.demo2@demo.example.com', 'subscribed', ['VIP']],
  ]);
});
