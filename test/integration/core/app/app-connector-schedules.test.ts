// Schedules in the app, through the real runtime, a spec-only service with a live key and the project's
// Mailchimp test server: a run missed while the app was closed is caught up at start and said so, it reads,
// cleans, plans and writes back on its own (only where the schedule says so; a member the tool refuses kept
// with its words), each run is claimed so
// `sift sync --due` never runs it again, and a schedule made in the app is stopped from it.
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { ConnectionsPage, ExportFile, JobOverview, SyncView } from '../../../../electron/common/contract.ts';
import { exportFolder } from '../../../../electron/core/jobs/store/index.ts';
import { createAppRuntime } from '../../../../electron/core/app/app-runtime.ts';
import { openScheduleStore } from '../../../../electron/core/connectors/schedule-store.ts';
import { startMailchimp, subscriberHash, type MailchimpServer } from '../../../support/mailchimp-server.ts';
import { startSpecPeer, type SpecPeer } from '../../../support/spec-peer.ts';
import { appCaller } from '../../../support/app-call.ts';
import { waitFor } from '../../../support/service-harness.ts';

const call = appCaller('ipc');
const liveKey = 'svc_live_scheduleApp0123456789ab';
const dayMs = 86_400_000;
let chimp: MailchimpServer;
let peer: SpecPeer;
let dataDir: string;

beforeAll(async () => {
  [chimp, peer] = await Promise.all([startMailchimp(), startSpecPeer({ apiKey: liveKey })]);
  const emails = ['valid.a@shop.example', 'invalid.b@shop.example', 'catchall.c@mall.example'];
  chimp.audiences.set('aud1', {
    name: 'Newsletter',
    members: new Map(
      emails.map((email) => [subscriberHash(email), { email, name: '', status: 'subscribed', tags: new Set() }]),
    ),
  });
  dataDir = await mkdtemp(join(tmpdir(), 'sift-app-schedules-'));
  // The app, once: connected to the tool and sending lists to the live service.
  const runtime = await createAppRuntime({ dataDir, appVersion: '1.0.0' });
  try {
    await call(runtime, 'settings:saveHosted', { baseUrl: peer.baseUrl, label: 'Peer', apiKey: liveKey });
    await call(runtime, 'connectors:add', { kind: 'mailchimp', name: 'shop', secret: chimp.key, apiUrl: chimp.url });
    const page = await call<ConnectionsPage>(runtime, 'connectors:schedule', {
      name: 'shop',
      audience: 'aud1',
      everyDays: 7,
      writeBack: true,
    });
    expect(page.schedules).toMatchObject([{ connection: 'shop', audience: 'aud1', everyDays: 7, writeBack: true }]);
    expect(page.schedules[0]!.nextDue).toBeGreaterThan(Date.now() + 6 * dayMs);
  } finally {
    await runtime.close();
  }
});
afterAll(async () => {
  await Promise.all([chimp?.close(), peer?.close()]);
});

it('catches up on a run missed while it was closed, says so, and writes its plan back', async () => {
  // As if the app had been closed for two weeks: the schedule's run was due a week ago.
  const store = openScheduleStore(dataDir);
  store.schedule('shop', 'aud1', 7, true, [], Date.now() - 7 * dayMs);
  store.close();
  expect(chimp.writes).toEqual([]);
  // Mailchimp refuses one member's tags: kept with its words, the rest written.
  chimp.failNext(`/3.0/lists/aud1/members/${subscriberHash('catchall.c@mall.example')}/tags`, 404, 1);

  const runtime = await createAppRuntime({ dataDir, appVersion: '1.0.0' });
  try {
    const first = await call<ConnectionsPage>(runtime, 'connectors:list', {});
    expect(first.caughtUp).toMatch(/^Caught up on a scheduled sync missed while Sift was closed: shop · aud1 \(due /);
    await waitFor(
      async () => (await call<ConnectionsPage>(runtime, 'connectors:list', {})).schedules[0]?.lastRun !== null,
      15_000,
    );
    const page = await call<ConnectionsPage>(runtime, 'connectors:list', {});
    expect(page.schedules[0]).toMatchObject({ lastOutcome: 'written: 2; refused by the tool: 1' });
    expect(page.schedules[0]!.nextDue).toBeGreaterThan(Date.now() + 6 * dayMs);
    expect(page.syncs[0]).toMatchObject({
      phase: 'done',
      written: 2,
      refused: 1,
      refusedExamples: [
        { email: 'catchall.c@mall.example', words: expect.stringContaining('A failure the test asked for') },
      ],
    });
    const tags = Object.fromEntries(
      [...chimp.audiences.get('aud1')!.members.values()].map((member) => [member.email, [...member.tags]]),
    );
    expect(tags).toEqual({
      'valid.a@shop.example': ['sift-valid'],
      'invalid.b@shop.example': ['sift-invalid'],
      'catchall.c@mall.example': [],
    });
    expect(peer.batches).toHaveLength(1);
    // Every refusal, with the tool's words, as a file beside the list's exports.
    const file = await call<ExportFile>(runtime, 'connectors:refusals', { syncId: page.syncs[0]!.id });
    expect(file).toMatchObject({ kind: 'refused', name: 'aud1.refused.csv' });
    const written = await readFile(join(exportFolder(dataDir, page.syncs[0]!.jobId!), file.name), 'utf8');
    expect(written.split('\n')[0]).toBe('email,member_id,change,refused_with');
    expect(written).toContain('catchall.c@mall.example');
    expect(written).toContain('A failure the test asked for');

    // Claimed: the same run is not due for another process (`sift sync --due`) now.
    const shared = openScheduleStore(dataDir);
    expect(shared.claim('shop', 'aud1', Date.now())).toBe(false);
    shared.close();

    const stopped = await call<ConnectionsPage>(runtime, 'connectors:schedule', {
      name: 'shop',
      audience: 'aud1',
      everyDays: null,
    });
    expect(stopped.schedules).toEqual([]);
    const again = await runtime.dispatch(
      'connectors:schedule',
      { name: 'shop', audience: 'aud1', everyDays: 2 },
      { transport: 'ipc' },
    );
    expect(again).toMatchObject({ ok: false, error: { code: 'bad_request' } });
  } finally {
    await runtime.close();
  }
});

it("keeps a schedule's step for invalid members, and never writes a plan a person made with another choice", async () => {
  let runtime = await createAppRuntime({ dataDir, appVersion: '1.0.0' });
  try {
    const page = await call<ConnectionsPage>(runtime, 'connectors:schedule', {
      name: 'shop',
      audience: 'aud1',
      everyDays: 30,
      writeBack: true,
      withInvalidStep: true,
      withScoreFields: true,
    });
    expect(page.schedules).toMatchObject([
      { everyDays: 30, writeBack: true, withInvalidStep: true, withScoreFields: true },
    ]);
    // Kept as `sift schedule … --archive-invalid --merge-fields` keeps them, for `sift sync --due` too.
    const kept = openScheduleStore(dataDir);
    expect(kept.schedules()[0]!.cleanFlags).toEqual(['--archive-invalid', '--merge-fields']);
    kept.close();

    // A person's own plan, with the archive step ticked, left waiting.
    const read = await call<SyncView>(runtime, 'connectors:read', { name: 'shop', audience: 'aud1' });
    await call(runtime, 'jobs:start', { jobId: read.jobId });
    await waitFor(async () => (await call<JobOverview>(runtime, 'jobs:get', { jobId: read.jobId })).phase === 'done');
    const planned = await call<SyncView>(runtime, 'connectors:plan', { syncId: read.id, withInvalidStep: true });
    expect(planned.plan.map((line) => line.change)).toContainEqual(expect.stringMatching(/^archived/));
  } finally {
    await runtime.close();
  }
  // The schedule is due, now without the step: its run leaves the person's plan as it is.
  const store = openScheduleStore(dataDir);
  store.schedule('shop', 'aud1', 30, true, [], Date.now() - dayMs);
  store.close();
  const writesBefore = chimp.writes.length;
  runtime = await createAppRuntime({ dataDir, appVersion: '1.0.0' });
  try {
    await waitFor(
      async () => (await call<ConnectionsPage>(runtime, 'connectors:list', {})).schedules[0]?.lastRun !== null,
      15_000,
    );
    const page = await call<ConnectionsPage>(runtime, 'connectors:list', {});
    expect(page.schedules[0]!.lastOutcome).toBe(
      'not written: the plan waiting has 1 invalid member archived (Mailchimp keeps the member, its history and its tags; re-adding them restores them; never deleted), which this schedule does not choose; it waits on the Mailing tools screen',
    );
    expect(page.syncs[0]).toMatchObject({ phase: 'planned', written: 0 });
    expect(chimp.writes.length).toBe(writesBefore);
    expect(chimp.audiences.get('aud1')!.members.get(subscriberHash('invalid.b@shop.example'))!.status).toBe(
      'subscribed',
    );
  } finally {
    await runtime.close();
  }
});

it("runs a schedule of one Mailchimp tag's members, made in the app", async () => {
  const audience = chimp.audiences.get('aud1')!;
  audience.segments = new Map([
    [9, { name: 'VIP', type: 'static', members: new Set([subscriberHash('valid.a@shop.example')]) }],
  ]);
  let runtime = await createAppRuntime({ dataDir, appVersion: '1.0.0' });
  try {
    // The plan the last test left waiting is set aside: it read the whole list.
    const waiting = (await call<ConnectionsPage>(runtime, 'connectors:list', {})).syncs[0]!;
    await call(runtime, 'connectors:discard', { syncId: waiting.id });
    const page = await call<ConnectionsPage>(runtime, 'connectors:schedule', {
      name: 'shop',
      audience: 'aud1',
      everyDays: 7,
      segment: '9',
    });
    expect(page.schedules[0]).toMatchObject({ readChoice: { include: [], segment: '9' } });
  } finally {
    await runtime.close();
  }
  const store = openScheduleStore(dataDir);
  expect(store.schedules()[0]!.cleanFlags).toEqual(['--segment', '9']);
  store.schedule('shop', 'aud1', 7, false, ['--segment', '9'], Date.now() - dayMs);
  store.close();
  const since = Date.now();
  runtime = await createAppRuntime({ dataDir, appVersion: '1.0.0' });
  try {
    await waitFor(
      async () => ((await call<ConnectionsPage>(runtime, 'connectors:list', {})).schedules[0]?.lastRun ?? 0) >= since,
      15_000,
    );
    const page = await call<ConnectionsPage>(runtime, 'connectors:list', {});
    expect(page.syncs[0]).toMatchObject({ members: 1, readChoice: { include: [], segment: '9' } });
    expect(page.schedules[0]!.lastOutcome).not.toMatch(/^failed/);
  } finally {
    await runtime.close();
  }
});
