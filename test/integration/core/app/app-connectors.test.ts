// The Mailing tools screen's calls through the real dispatch, Sift's own service (the demo) and the
// project's Mailchimp test server: a refused key said in words and kept nowhere, the secret never in an
// answer, each step refused in words until its time (a plan before the list is cleaned), demo verdicts
// planned but never written, a sync set aside, and a connection forgotten with its secret.
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { CacheStats, ConnectionsPage, JobOverview, SyncView } from '../../../../electron/common/contract.ts';
import { createAppRuntime, type AppRuntime } from '../../../../electron/core/app/app-runtime.ts';
import { startMailchimp, subscriberHash, type MailchimpServer } from '../../../support/mailchimp-server.ts';
import { appCaller } from '../../../support/app-call.ts';
import { waitFor } from '../../../support/service-harness.ts';

const seen: string[] = [];
const call = appCaller('web', seen);
let chimp: MailchimpServer;
let runtime: AppRuntime;
let dataDir: string;

beforeAll(async () => {
  chimp = await startMailchimp();
  const members = new Map(
    ['valid.a@shop.example', 'invalid.b@shop.example', 'valid.c@mall.example'].map((email) => [
      subscriberHash(email),
      { email, name: '', status: 'subscribed', tags: new Set<string>() },
    ]),
  );
  chimp.audiences.set('aud1', { name: 'Newsletter', members });
  dataDir = await mkdtemp(join(tmpdir(), 'sift-app-connectors-'));
  runtime = await createAppRuntime({ dataDir, appVersion: '1.0.0' });
});
afterAll(async () => {
  await runtime?.close();
  await chimp?.close();
});

const refusal = (name: string, request: unknown) => runtime.dispatch(name, request, { transport: 'web' });

it('connects only with a key the tool takes, and never answers with it', async () => {
  const wrongKey = `${'e'.repeat(32)}-us99`;
  const refused = await refusal('connectors:add', {
    kind: 'mailchimp',
    name: 'shop',
    secret: wrongKey,
    apiUrl: chimp.url,
  });
  expect(refused).toMatchObject({
    ok: false,
    error: { code: 'unauthorized', message: /refused the credentials \(401\)/ },
  });
  expect(JSON.stringify(refused)).not.toContain('e'.repeat(32));
  expect((await call<ConnectionsPage>(runtime, 'connectors:list', {})).connections).toEqual([]);
  const notLoopback = await refusal('connectors:add', {
    kind: 'mailchimp',
    name: 'shop',
    secret: chimp.key,
    apiUrl: 'http://example.com/3.0',
  });
  expect(notLoopback).toMatchObject({ ok: false, error: { code: 'bad_request' } });
  const badName = await refusal('connectors:add', { kind: 'mailchimp', name: '../x', secret: chimp.key });
  expect(badName).toMatchObject({ ok: false, error: { code: 'bad_request', message: /letters, digits/ } });

  const page = await call<ConnectionsPage>(runtime, 'connectors:add', {
    kind: 'mailchimp',
    name: 'shop',
    secret: chimp.key,
    apiUrl: chimp.url,
  });
  expect(page.connections).toMatchObject([{ name: 'shop', kind: 'mailchimp', reaches: /Sift Test Shop/ }]);
  expect(await call(runtime, 'connectors:audiences', { name: 'shop' })).toEqual([
    { id: 'aud1', name: 'Newsletter', size: 3 },
  ]);
  expect(seen.join('\n')).not.toContain(chimp.key);
});

it('reads a list into the app, plans demo verdicts only after cleaning, and never writes them', async () => {
  const read = await call<SyncView>(runtime, 'connectors:read', {
    name: 'shop',
    audience: 'aud1',
    listName: 'News/letter',
  });
  expect(read).toMatchObject({ phase: 'cleaning', members: 3, plan: [] });
  const job = await call<JobOverview>(runtime, 'jobs:get', { jobId: read.jobId });
  expect(job).toMatchObject({ fileName: 'shop · News_letter.csv', rows: 3, phase: 'imported', demo: true });

  const early = await refusal('connectors:plan', { syncId: read.id });
  expect(early).toMatchObject({ ok: false, error: { code: 'bad_request', message: /Clean the list first/ } });
  await call(runtime, 'jobs:start', { jobId: read.jobId });
  await waitFor(async () => (await call<JobOverview>(runtime, 'jobs:get', { jobId: read.jobId })).phase === 'done');
  // The verdicts go into the cache after the list is done: on a loaded machine, a moment later.
  await waitFor(async () => (await call<CacheStats>(runtime, 'cache:stats', {})).sandbox === 3);

  const planned = await call<SyncView>(runtime, 'connectors:plan', { syncId: read.id });
  expect(planned).toMatchObject({ phase: 'planned', demo: true });
  expect(planned.plan.map((line) => [line.members, line.change.split(' (')[0]])).toEqual([
    [1, 'the tag sift-invalid'],
    [2, 'the tag sift-valid'],
  ]);
  const written = await refusal('connectors:writeBack', { syncId: read.id });
  expect(written).toMatchObject({ ok: false, error: { code: 'bad_request', message: /demo verdicts/ } });
  expect(chimp.writes).toEqual([]);
  // The screen's list says so too: a demo plan gets no write button.
  const listed = await call<ConnectionsPage>(runtime, 'connectors:list', {});
  expect(listed.syncs.find((sync) => sync.id === read.id)).toMatchObject({ phase: 'planned', demo: true });
  // The list behind a plan removed from History: nothing is written on its word.
  await call(runtime, 'jobs:delete', { jobId: read.jobId });
  const orphan = await refusal('connectors:writeBack', { syncId: read.id });
  expect(orphan).toMatchObject({ ok: false, error: { code: 'bad_request', message: /removed from History/ } });
  expect(chimp.writes).toEqual([]);

  const aside = await call<ConnectionsPage>(runtime, 'connectors:discard', { syncId: read.id });
  expect(aside.syncs.find((sync) => sync.id === read.id)).toMatchObject({ phase: 'done', written: 0 });
  // Read again: a new sync, its addresses known from the verdict cache (nothing to pay for).
  const again = await call<SyncView>(runtime, 'connectors:read', { name: 'shop', audience: 'aud1' });
  expect(again.id).toBeGreaterThan(read.id);
  expect(await call<JobOverview>(runtime, 'jobs:get', { jobId: again.jobId })).toMatchObject({
    cost: { checks: 0, cached: 3 },
  });
});

it("reads a Mailchimp tag's members, and pending ones only when chosen, and says which", async () => {
  const member = (email: string, status: string) =>
    [subscriberHash(email), { email, name: '', status, tags: new Set<string>() }] as const;
  chimp.audiences.set('aud2', {
    name: 'Club',
    members: new Map([
      member('valid.p@club.example', 'subscribed'),
      member('valid.q@club.example', 'pending'),
      member('valid.r@club.example', 'subscribed'),
    ]),
    segments: new Map([
      [
        55,
        {
          name: 'VIP',
          type: 'static' as const,
          members: new Set(['valid.p', 'valid.q'].map((local) => subscriberHash(`${local}@club.example`))),
        },
      ],
    ]),
  });
  expect(await call(runtime, 'connectors:segments', { name: 'shop', audience: 'aud2' })).toEqual([
    { id: '55', name: 'VIP', kind: 'tag', size: 2 },
  ]);
  const read = await call<SyncView>(runtime, 'connectors:read', {
    name: 'shop',
    audience: 'aud2',
    listName: 'Club · VIP',
    include: ['pending'],
    segment: '55',
  });
  expect(read).toMatchObject({ members: 2, readChoice: { include: ['pending'], segment: '55' } });
  expect(await call<JobOverview>(runtime, 'jobs:get', { jobId: read.jobId })).toMatchObject({
    fileName: 'shop · Club · VIP.csv',
  });
  // The read waiting is of those members: another choice is said in words until it is set aside.
  const other = await refusal('connectors:read', { name: 'shop', audience: 'aud2' });
  expect(other).toMatchObject({
    ok: false,
    error: {
      code: 'bad_request',
      message: /reading its subscribed and pending members of segment or tag 55 is not finished/,
    },
  });
  const badSegment = await refusal('connectors:read', { name: 'shop', audience: 'aud2', segment: '55; DROP' });
  expect(badSegment).toMatchObject({ ok: false, error: { code: 'bad_request' } });
  const unsubscribed = await refusal('connectors:read', { name: 'shop', audience: 'aud2', include: ['unsubscribed'] });
  expect(unsubscribed).toMatchObject({ ok: false, error: { code: 'bad_request' } });
});

it('says in words when its connections file is damaged, and changes nothing in it', async () => {
  const file = join(dataDir, 'connectors.json');
  const kept = await readFile(file, 'utf8');
  await writeFile(file, '{"connections": [ {"name": "sh');
  const said = await refusal('connectors:list', {});
  expect(said).toMatchObject({
    ok: false,
    error: {
      code: 'bad_request',
      message: `${file} is not a file of connections Sift can read: move it away (or mend it) to connect again. Nothing in it was changed.`,
    },
  });
  expect(await readFile(file, 'utf8')).toBe('{"connections": [ {"name": "sh');
  await writeFile(file, kept);
});

it('forgets a connection with its secret, and says so for a name it does not know', async () => {
  const secretFile = join(dataDir, 'keys', 'connector_shop.key');
  expect(existsSync(secretFile)).toBe(true);
  expect((await call<ConnectionsPage>(runtime, 'connectors:remove', { name: 'shop' })).connections).toEqual([]);
  expect(existsSync(secretFile)).toBe(false);
  expect(await refusal('connectors:remove', { name: 'shop' })).toMatchObject({
    ok: false,
    error: { code: 'not_found' },
  });
  expect(await refusal('connectors:audiences', { name: 'shop' })).toMatchObject({
    ok: false,
    error: { code: 'not_found', message: /No connection named "shop"/ },
  });
});
