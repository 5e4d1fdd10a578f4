// A team's outcomes on Sift's own service (its database: SQLite here, PostgreSQL in that tier): what one
// person's Sift read back reaches a teammate's, whose next list keeps the hard bounces out; an undo and a
// forgotten source reach them too. And the API itself: its pages, its refusals, one space per key mode.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServiceClient } from '../../../../electron/core/client/service-client.ts';
import {
  forgetSource,
  importOutcomeFile,
  openOutcomeStore,
  shareWithTeam,
  undoOutcome,
} from '../../../../electron/core/outcomes/index.ts';
import { openSuppressionStore } from '../../../../electron/core/suppression/index.ts';
import { cacheKeysOf } from '../../../../electron/core/cache/index.ts';
import { learnedCatchAllDomains } from '../../../../electron/core/outcomes/catch-all-evidence.ts';
import { catchAllEvidenceWords } from '../../../../electron/common/reason-words.ts';
import type { VerificationService } from '../../../../electron/core/service/verification-service.ts';
import { apiClient, startTestService } from '../../../support/service-harness.ts';

let service: VerificationService;
let liveKey: string;
let sandboxKey: string;
const dirs: string[] = [];

beforeAll(async () => {
  service = await startTestService();
  liveKey = (await service.dashboard.createKey('live', 'team')).key;
  sandboxKey = (await service.dashboard.createKey('sandbox', 'team')).key;
});
afterAll(async () => {
  await service.close();
  await Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true })));
});

async function person() {
  const dir = await mkdtemp(join(tmpdir(), 'sift-team-'));
  dirs.push(dir);
  const dataDir = join(dir, 'data');
  return {
    dir,
    dataDir,
    client: createServiceClient({ baseUrl: service.baseUrl, apiKey: liveKey }),
    share() {
      const store = openOutcomeStore(dataDir);
      return shareWithTeam(dataDir, store, this.client).finally(() => store.close());
    },
    doNotMail() {
      const list = openSuppressionStore(dataDir);
      try {
        return list
          .page({ search: '', offset: 0, limit: 5000 })
          .entries.map((entry) => entry.value)
          .sort();
      } finally {
        list.close();
      }
    },
    withStore<T>(use: (store: ReturnType<typeof openOutcomeStore>) => T | Promise<T>) {
      const store = openOutcomeStore(dataDir);
      return Promise.resolve(use(store)).finally(() => store.close());
    },
  };
}

const bounces = [
  'Email,Bounce Type,Date,Reason',
  'gone@shop.example,hard,2026-03-10,550 5.1.1 <gone@shop.example>: User unknown',
  'left@shop.example,hard,2026-03-11,550 5.1.1 mailbox unavailable',
  'full@shop.example,soft,2026-03-11,452 4.2.2 Mailbox full',
].join('\n');

describe("a team's outcomes on Sift's own service", () => {
  it('names outcomes among its features, and refuses what it cannot keep in words', async () => {
    const api = apiClient(service, liveKey);
    expect((await api('GET', '/account')).body.features).toContain('outcomes');
    const bad = await api('POST', '/outcomes', { outcomes: [{ id: 'x/1', source: 'x', email: 'a@b.example' }] });
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe('invalid_outcomes');
    expect(bad.body.error.message).toMatch(/^outcomes\.0\.kind/);
    const cursor = await api('GET', '/outcomes?after=nonsense');
    expect([cursor.status, cursor.body.error.code]).toEqual([400, 'invalid_cursor']);
    expect((await api('GET', '/outcomes?limit=1001')).body.error.code).toBe('invalid_limit');
    const impossible = { domain: 'acme.example', sent: 2, bounced: 3, since: '2026-09-01T00:00:00Z' };
    const counts = await api('POST', '/outcomes/catch-all', { origin: 'ox', domains: [impossible] });
    expect([counts.status, counts.body.error.message]).toEqual([400, 'domains.0: bounced cannot be more than sent']);
  });

  it('pages every change in order, an undo and a forgetting as changes of their own, one space per key mode', async () => {
    const api = apiClient(service, liveKey);
    const outcome = (n: number) => ({
      id: `opaging.s/${n}`,
      source: 'opaging.s',
      email: `p${n}@page.example`,
      kind: 'hard',
      reason: 'user unknown',
      at: '2026-03-10T08:00:00Z',
    });
    expect((await api('POST', '/outcomes', { outcomes: [1, 2, 3].map(outcome) })).body.stored).toBe(3);
    // Sent again as it was: nothing changes.
    expect((await api('POST', '/outcomes', { outcomes: [outcome(2)] })).body.stored).toBe(0);
    const first = await api('GET', '/outcomes?limit=2');
    expect(first.body.data.map((row: { email: string }) => row.email)).toEqual(['p1@page.example', 'p2@page.example']);
    expect(first.body.has_more).toBe(true);
    const rest = await api('GET', `/outcomes?after=${encodeURIComponent(first.body.next_after)}`);
    expect(rest.body.data.map((row: { email: string }) => row.email)).toEqual(['p3@page.example']);
    expect(rest.body.has_more).toBe(false);

    await api('POST', '/outcomes', { outcomes: [{ ...outcome(1), undone_at: '2026-03-12T00:00:00Z' }] });
    const undone = await api('GET', `/outcomes?after=${encodeURIComponent(rest.body.next_after)}`);
    expect(undone.body.data).toEqual([
      expect.objectContaining({ email: 'p1@page.example', undone_at: '2026-03-12T00:00:00.000Z' }),
    ]);

    expect((await api('POST', '/outcomes/forget', { source: 'opaging.s' })).body.forgotten).toBe(3);
    const forgotten = await api('GET', `/outcomes?after=${encodeURIComponent(undone.body.next_after)}`);
    expect(forgotten.body.data).toHaveLength(3);
    // Forgotten is wiped: the address and the words go, the id stays so readers can let it go.
    expect(
      forgotten.body.data.every((row: { forgotten: boolean; email: string }) => row.forgotten && row.email === ''),
    ).toBe(true);
    // Sent again after the forgetting: it stays forgotten.
    expect((await api('POST', '/outcomes', { outcomes: [outcome(1)] })).body.stored).toBe(0);

    // A sandbox key sees none of the live keys' outcomes.
    expect((await apiClient(service, sandboxKey)('GET', '/outcomes')).body.data).toEqual([]);
  });

  it('reaches a teammate: hard bounces onto their do-not-mail list, then an undo and a forgetting take them back', async () => {
    const ann = await person();
    const bob = await person();
    const file = join(ann.dir, 'bounces.csv');
    await writeFile(file, `${bounces}\n`);
    await ann.withStore((store) => importOutcomeFile(ann.dataDir, store, 'esp', file, 'bounces.csv'));

    const sent = await ann.share();
    expect(sent).toMatchObject({ offered: true, sent: 3, received: 0 });
    const got = await bob.share();
    expect(got).toMatchObject({ offered: true, sent: 0, received: 3, suppressed: 2 });
    expect(bob.doNotMail()).toEqual(['gone@shop.example', 'left@shop.example']);
    // Shared again: nothing twice, either way.
    expect(await bob.share()).toMatchObject({ sent: 0, received: 0 });
    expect(await ann.share()).toMatchObject({ sent: 0, received: 0 });

    // Ann undoes a wrong one: Bob's copy is undone, and the address leaves his list.
    const gone = await ann.withStore((store) => store.page({ search: 'gone@', limit: 1 })[0]!);
    await ann.withStore((store) => undoOutcome(ann.dataDir, store, gone.id));
    expect(await ann.share()).toMatchObject({ sent: 1 });
    expect(await bob.share()).toMatchObject({ undone: 1, received: 0 });
    expect(bob.doNotMail()).toEqual(['left@shop.example']);

    // Bob undoes one Ann read: Ann's own is undone at her next sharing.
    const left = await bob.withStore((store) => store.page({ search: 'left@', limit: 1 })[0]!);
    await bob.withStore((store) => undoOutcome(bob.dataDir, store, left.id));
    await bob.share();
    expect(await ann.share()).toMatchObject({ undone: 1 });
    expect(ann.doNotMail()).toEqual([]);

    // Ann forgets the file: gone for the team.
    await ann.withStore((store) => forgetSource(ann.dataDir, store, 'esp'));
    expect(await ann.share()).toMatchObject({ forgotten: 1 });
    expect(await bob.share()).toMatchObject({ letGo: 3 });
    expect(await bob.withStore((store) => store.counts())).toEqual([]);
  });

  it("keeps two teammates' reports of the same bounce apart: one forgotten, the other still holds the address", async () => {
    // Ann and Bob read the same bounce (one audience, say): the same address, kind and time.
    const [ann, bob, carol] = [await person(), await person(), await person()];
    const file = join(ann.dir, 'same.csv');
    await writeFile(file, 'email,type,date\nshared@twice.example,hard,2026-04-02\n');
    for (const each of [ann, bob]) {
      await each.withStore((store) => importOutcomeFile(each.dataDir, store, 'esp', file, 'same.csv'));
      expect(await each.share()).toMatchObject({ sent: 1 });
    }
    expect(await carol.share()).toMatchObject({ received: 2, suppressed: 1 });
    expect(await carol.withStore((store) => store.page({ search: 'shared@', limit: 5 }))).toHaveLength(2);

    // Ann forgets hers: Bob's report still stands at Carol's, and so does the address on her list.
    await ann.withStore((store) => forgetSource(ann.dataDir, store, 'esp'));
    await ann.share();
    expect(await carol.share()).toMatchObject({ letGo: 1 });
    expect(carol.doNotMail()).toContain('shared@twice.example');
    // Bob undoes his own (Ann's is still at his, until his next sharing): now nothing holds it.
    const bobs = await bob.withStore((store) =>
      store.page({ search: 'shared@', limit: 5 }).find((outcome) => outcome.source === 'esp'),
    );
    await bob.withStore((store) => undoOutcome(bob.dataDir, store, bobs!.id));
    await bob.share();
    expect(await carol.share()).toMatchObject({ undone: 1 });
    expect(carol.doNotMail()).not.toContain('shared@twice.example');
    // Nothing of this test is left for the next ones' teammates.
    await bob.withStore((store) => forgetSource(bob.dataDir, store, 'esp'));
    await bob.share();
  });

  it("shares catch-all counts, never who was sent to: a teammate's sends weigh in a domain's score", async () => {
    const [ann, bob, carol] = [await person(), await person(), await person()];
    const checkedAt = Date.UTC(2026, 8, 1);
    // What a tool reported sent, to addresses Sift had called catch-all (as a Mailchimp campaign's recipients).
    const sends = (dataDir: string, domain: string, n: number) => {
      const key = cacheKeysOf(dataDir);
      const checked = { result: 'catch_all', reason: 'accept_all_domain', checkedAt };
      return Array.from({ length: n }, (_, i) => ({
        key: key(`p${i}@${domain}`),
        domain,
        at: checkedAt + 86_400_000,
        checked,
      }));
    };
    await ann.withStore((store) => store.recordSends(sends(ann.dataDir, 'acme.example', 412)));
    await bob.withStore((store) => store.recordSends(sends(bob.dataDir, 'widgets.example', 30)));
    const file = join(bob.dir, 'widgets.csv');
    const bounced = Array.from({ length: 6 }, (_, i) => `p${i}@widgets.example,hard,2026-09-10`);
    await writeFile(file, `email,type,date\n${bounced.join('\n')}\n`);
    await bob.withStore((store) => importOutcomeFile(bob.dataDir, store, 'esp', file, 'widgets.csv'));

    expect(await ann.share()).toMatchObject({ catchAllSent: 1, catchAllDomains: 0 });
    expect(await bob.share()).toMatchObject({ catchAllSent: 1, catchAllDomains: 1 });
    expect(await ann.share()).toMatchObject({ catchAllSent: 0, catchAllDomains: 1 });
    // A second team's service gets the folder's counts whole, not only what changed since the first heard them.
    const other = await startTestService();
    try {
      const otherKey = (await other.dashboard.createKey('live', 'other team')).key;
      const toOther = createServiceClient({ baseUrl: other.baseUrl, apiKey: otherKey });
      const shared = await ann.withStore((store) => shareWithTeam(ann.dataDir, store, toOther));
      expect(shared).toMatchObject({ catchAllSent: 1, catchAllDomains: 0 });
    } finally {
      await other.close();
    }
    // What reached the service is counts by domain, and nothing of the addresses sent to.
    const api = apiClient(service, liveKey);
    const { body } = await api('GET', '/outcomes/catch-all');
    expect(JSON.stringify(body)).not.toContain('p1@');
    expect(body).toMatchObject({
      data: [
        { domain: 'acme.example', sent: 412, bounced: 0, folders: 1 },
        { domain: 'widgets.example', sent: 30, bounced: 6, folders: 1 },
      ],
      has_more: false,
    });

    // Bob's list is weighed by Ann's sends, which he never made, and says whose they were.
    const learned = (dataDir: string) =>
      learnedCatchAllDomains(dataDir).map(({ domain, sent, bounced, teamSent, move }) => ({
        domain,
        sent,
        bounced,
        teamSent,
        move,
      }));
    expect(learned(bob.dataDir)).toEqual([
      { domain: 'widgets.example', sent: 30, bounced: 6, teamSent: 0, move: 'catch_all_bounces' },
      { domain: 'acme.example', sent: 412, bounced: 0, teamSent: 412, move: 'catch_all_delivers' },
    ]);
    expect(catchAllEvidenceWords({ ...learned(bob.dataDir)[1]!, since: checkedAt + 86_400_000 })).toBe(
      "Catch-all at acme.example: 0 of 412 sends bounced since September 2026 (all of them teammates').",
    );
    // A teammate who sent nothing learns both; more sends by Ann are counted again, not added twice.
    await carol.share();
    expect(learned(carol.dataDir).map((row) => [row.domain, row.sent, row.move])).toEqual([
      ['acme.example', 412, 'catch_all_delivers'],
      ['widgets.example', 30, 'catch_all_bounces'],
    ]);
    await ann.withStore((store) => store.recordSends(sends(ann.dataDir, 'acme.example', 420)));
    expect(await ann.share()).toMatchObject({ catchAllSent: 1 });
    await carol.share();
    expect(learned(carol.dataDir)[0]).toMatchObject({ domain: 'acme.example', sent: 420, teamSent: 420 });
    // Carol forgets the team's source here: its catch-all counts go with it, until she shares again.
    await carol.withStore((store) => forgetSource(carol.dataDir, store, `team at ${new URL(service.baseUrl).host}`));
    expect(learned(carol.dataDir)).toEqual([]);
    // Nothing of this test's outcomes is left for the next ones' teammates.
    await bob.withStore((store) => forgetSource(bob.dataDir, store, 'esp'));
    await bob.share();
  });

  it('goes on after a sharing cut off mid-way, with nothing lost or sent twice; a source read again is new', async () => {
    const ann = await person();
    const bob = await person();
    const file = join(ann.dir, 'many.csv');
    const rows = Array.from({ length: 1500 }, (_, i) => `m${i}@many.example,hard,2026-03-10`);
    await writeFile(file, `email,type,date\n${rows.join('\n')}\n`);
    await ann.withStore((store) => importOutcomeFile(ann.dataDir, store, 'many', file, 'many.csv'));
    // The service goes away after its first page of 1,000 is kept.
    let posts = 0;
    const cut = createServiceClient({
      baseUrl: service.baseUrl,
      apiKey: liveKey,
      maxTransientRetries: 0,
      fetch: async (url, init) => {
        if (init?.method === 'POST' && (posts += 1) > 1) throw new TypeError('fetch failed');
        return fetch(url, init);
      },
    });
    await expect(ann.withStore((store) => shareWithTeam(ann.dataDir, store, cut))).rejects.toThrow();
    expect(await bob.share()).toMatchObject({ received: 1000 });
    expect(await ann.share()).toMatchObject({ sent: 500 });
    expect(await bob.share()).toMatchObject({ received: 500, suppressed: 500 });
    expect(bob.doNotMail()).toHaveLength(1500);

    // Forgotten, then read again: the teammate lets the old ones go and takes the new ones.
    await ann.withStore((store) => forgetSource(ann.dataDir, store, 'many'));
    await ann.withStore((store) => importOutcomeFile(ann.dataDir, store, 'many', file, 'many.csv'));
    expect(await ann.share()).toMatchObject({ forgotten: 1, sent: 1500 });
    expect(await bob.share()).toMatchObject({ letGo: 1500, received: 1500 });
    expect(bob.doNotMail()).toHaveLength(1500);
  });

  it("takes a teammate's outcome as a file's row: an address only if it is one, words without controls", async () => {
    // A sandbox key's space of its own, so the other tests' outcomes are not in it.
    const api = apiClient(service, sandboxKey);
    const sent = (n: number, email: string, words: string) => ({
      id: `ostrange.s/${n}`,
      source: 'ostrange.s',
      email,
      kind: 'hard',
      reason: 'user unknown',
      words,
      at: '2026-03-10T08:00:00Z',
    });
    await api('POST', '/outcomes', {
      outcomes: [sent(1, 'not an address', 'x'), sent(2, 'Odd@Shop.Example', '550 \u001b[31mUser unknown\u0007')],
    });
    const carol = await person();
    carol.client = createServiceClient({ baseUrl: service.baseUrl, apiKey: sandboxKey });
    expect(await carol.share()).toMatchObject({ received: 1, skipped: 1 });
    const [kept] = await carol.withStore((store) => store.page({ search: '', limit: 5 }));
    expect([kept!.address, kept!.words]).toEqual(['odd@shop.example', '550 User unknown']);
  });

  it('tells a service that keeps no outcomes apart, and sends it nothing', async () => {
    const fake = createServiceClient({
      baseUrl: 'http://127.0.0.1:9',
      apiKey: liveKey,
      fetch: async (url) => {
        expect(String(url)).toMatch(/\/v1\/account$/);
        return Response.json({
          mode: 'live',
          balance: 0,
          free_remaining: 0,
          key: { label: 'x', prefix: 'svc_live_…' },
        });
      },
    });
    const alone = await person();
    const store = openOutcomeStore(alone.dataDir);
    try {
      expect(await shareWithTeam(alone.dataDir, store, fake)).toEqual({ offered: false });
    } finally {
      store.close();
    }
  });
});
