// The verdict cache across lists, through the one sequence the app and the CLI share, against a service
// that counts what it is sent (test/support/spec-peer.ts), with the clock in the test's hands: a second
// list sharing 70% of the first's addresses sends only what is not known (and `unknown`, never reused);
// past a verdict's maximum age it is checked again; with the cache off everything is sent; live and demo
// verdicts never stand for each other; and the cache file holds no address in clear.
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Papa from 'papaparse';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServiceClient } from '../../../../electron/core/client/service-client.ts';
import { createCleaner, type Cleaner } from '../../../../electron/core/jobs/list-cleaner.ts';
import { jobSettings, type JobSettings } from '../../../../electron/core/jobs/job-settings.ts';
import type { Cost } from '../../../../electron/core/jobs/run/index.ts';
import { openJobStore, type JobStore } from '../../../../electron/core/jobs/store/index.ts';
import { startSpecPeer, type SpecPeer } from '../../../support/spec-peer.ts';

const day = 24 * 60 * 60_000;
const kinds = ['valid', 'invalid', 'catchall', 'unknown'] as const;
/** 250 addresses of each scripted verdict (the sandbox's script: the local part's prefix decides). */
const listA = kinds.flatMap((kind) => Array.from({ length: 250 }, (_, i) => `${kind}${i}@shop${i % 9}.example`));
/** 175 of each kind from list A, some as people type them (case, spaces), and 75 of each kind that are new. */
const shared = kinds.flatMap((kind) => listA.filter((address) => address.startsWith(kind)).slice(0, 175));
const fresh = kinds.flatMap((kind) => Array.from({ length: 75 }, (_, i) => `${kind}-b${i}@mall${i % 5}.example`));
const typed = (address: string, i: number) =>
  i % 3 === 0 ? address.toUpperCase() : i % 3 === 1 ? ` ${address} ` : address;
const listB = [...shared.map(typed), ...fresh];
/** Addresses only demo runs see. */
const listC = Array.from({ length: 200 }, (_, i) => `${kinds[i % 3]}-c${i}@fair${i % 4}.example`);

let root: string;
let store: JobStore;
let livePeer: SpecPeer;
let sandboxPeer: SpecPeer;
let clock = Date.UTC(2026, 9, 1, 12);
let cleaner: Cleaner;
const live = () => createServiceClient({ baseUrl: livePeer.baseUrl, apiKey: 'svc_live_cachepeer0123456789ab' });
const sandbox = () => createServiceClient({ baseUrl: sandboxPeer.baseUrl, apiKey: 'svc_test_cachepeer0123456789ab' });

async function writeList(name: string, addresses: readonly string[]): Promise<string> {
  const path = join(root, name);
  await writeFile(path, `Name,Email\n${addresses.map((address, i) => `P${i},"${address}"`).join('\n')}\n`);
  return path;
}

/** Cleans a list again from its first row; answers the cost it was told and its annotated rows. */
async function clean(
  client: ReturnType<typeof live>,
  inputPath: string,
  settings: Partial<JobSettings> = {},
): Promise<{ cost: Cost; rows: Record<string, string>[]; summary: Record<string, unknown> }> {
  let cost: Cost | undefined;
  const { exported } = await cleaner.cleanFile(
    client,
    { inputPath, settings: jobSettings(settings), policy: { restart: true }, outDir: root },
    { onCost: (told) => (cost = told), pollIntervalMs: 20 },
  );
  const parsed = Papa.parse<Record<string, string>>(
    (await readFile(exported.annotatedPath, 'utf8')).replace(/^\uFEFF/, ''),
    { header: true, skipEmptyLines: true },
  );
  return { cost: cost!, rows: parsed.data, summary: exported.summary };
}

/** How many times each address (normalised) was sent to a peer. */
const sentTimes = (peer: SpecPeer) => {
  const times = new Map<string, number>();
  for (const [address, count] of peer.submissions) {
    const key = address.trim().toLowerCase();
    times.set(key, (times.get(key) ?? 0) + count);
  }
  return times;
};
const totalSent = (peer: SpecPeer) => [...peer.submissions.values()].reduce((sum, n) => sum + n, 0);

/** The funnel adds up: every row once, every address to check has a verdict or is counted unchecked. */
function expectFunnelAddsUp(summary: Record<string, unknown>, rows: number) {
  const n = (name: string) => summary[name] as number;
  expect(n('no_address') + n('bad_syntax') + n('duplicates') + n('to_check')).toBe(rows);
  expect(n('valid') + n('invalid') + n('catch_all') + n('unknown') + n('unverified')).toBe(n('to_check'));
}

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'sift-verdict-cache-'));
  livePeer = await startSpecPeer({ apiKey: 'svc_live_cachepeer0123456789ab' });
  sandboxPeer = await startSpecPeer({ apiKey: 'svc_test_cachepeer0123456789ab' });
  store = openJobStore(join(root, 'data'));
  cleaner = createCleaner(store, { cacheDir: join(root, 'data'), now: () => clock });
});
afterAll(async () => {
  store.close();
  await livePeer.close();
  await sandboxPeer.close();
});

describe('the verdict cache', () => {
  it('sends a second list only what earlier lists did not settle, and says so before and after', async () => {
    const a = await clean(live(), await writeList('a.csv', listA));
    expect(a.cost).toMatchObject({ checks: 1000, cached: 0 });
    expect(totalSent(livePeer)).toBe(1000);

    const b = await clean(live(), await writeList('b.csv', listB));
    // The shared valid, invalid and catch-all addresses are known; the shared unknown ones are checked again.
    expect(b.cost).toMatchObject({ checks: 475, cached: 525 });
    const sent = sentTimes(livePeer);
    for (const address of shared) expect(sent.get(address)).toBe(address.startsWith('unknown') ? 2 : 1);
    for (const address of fresh) expect(sent.get(address)).toBe(1);
    expect(totalSent(livePeer)).toBe(1475);

    expect(b.summary).toMatchObject({ rows: 1000, to_check: 1000, cached: 525, unverified: 0 });
    expectFunnelAddsUp(b.summary, 1000);
    const byEmail = new Map(b.rows.map((row) => [row.Email!.trim().toLowerCase(), row]));
    for (const address of shared) {
      const row = byEmail.get(address)!;
      if (address.startsWith('unknown')) expect(row).toMatchObject({ sift_source: 'checked', sift_cached_on: '' });
      else expect(row).toMatchObject({ sift_source: 'cache', sift_cached_on: '2026-10-01', sift_billed: 'false' });
    }
    for (const address of fresh) expect(byEmail.get(address)).toMatchObject({ sift_source: 'checked' });
    // A reused verdict is the one the service gave: the same as list A's row for that address.
    const aByEmail = new Map(a.rows.map((row) => [row.Email!, row]));
    for (const address of shared) expect(byEmail.get(address)!.sift_result).toBe(aByEmail.get(address)!.sift_result);
  });

  it('checks a verdict again once it is older than its maximum age, each kind by its own', async () => {
    clock += 31 * day;
    const before = sentTimes(livePeer);
    const b = await clean(live(), join(root, 'b.csv'));
    // valid and catch_all are reused for 30 days, invalid for 90: only the invalid ones stand.
    expect(b.cost).toMatchObject({ cached: 250, checks: 750 });
    expect(b.summary).toMatchObject({ cached: 250, invalid: 250 });
    expectFunnelAddsUp(b.summary, 1000);
    const after = sentTimes(livePeer);
    for (const address of [...shared, ...fresh]) {
      const again = (after.get(address) ?? 0) - (before.get(address) ?? 0);
      expect(again, address).toBe(address.startsWith('invalid') ? 0 : 1);
    }
    // --max-age 10 stands for every kind: the valid and catch-all verdicts just got are reused, the invalid
    // ones (31 days old) are checked too.
    const strict = await clean(live(), join(root, 'b.csv'), { cacheMaxAgeDays: 10 });
    expect(strict.cost).toMatchObject({ cached: 500, checks: 500 });
  });

  it('sends everything with the cache off', async () => {
    const before = totalSent(livePeer);
    const b = await clean(live(), join(root, 'b.csv'), { useCache: false });
    expect(b.cost).toMatchObject({ checks: 1000, cached: 0 });
    expect(b.summary).toMatchObject({ cached: 0 });
    expect(totalSent(livePeer) - before).toBe(1000);
    expect(b.rows.every((row) => row.sift_source === 'checked')).toBe(true);
  });

  it('never hands a live verdict to a demo run, nor a demo verdict to a live one', async () => {
    const demoB = await clean(sandbox(), join(root, 'b.csv'));
    expect(demoB.cost).toMatchObject({ checks: 1000, cached: 0, mode: 'sandbox' });
    expect(totalSent(sandboxPeer)).toBe(1000);

    const c = await writeList('c.csv', listC);
    expect((await clean(sandbox(), c)).cost).toMatchObject({ checks: 200, cached: 0 });
    expect((await clean(sandbox(), c)).cost).toMatchObject({ checks: 0, cached: 200 });
    const liveBefore = totalSent(livePeer);
    const liveC = await clean(live(), c);
    expect(liveC.cost).toMatchObject({ checks: 200, cached: 0, mode: 'live' });
    expect(totalSent(livePeer) - liveBefore).toBe(200);

    // A list read for a demo key, then sent with a live one (the app's service changed between): read again.
    const d = await writeList(
      'd.csv',
      listC.map((address) => address.replace('-c', '-d')),
    );
    await clean(sandbox(), d);
    const job = await cleaner.jobForInput(d, jobSettings(), { restart: true });
    expect((await cleaner.prepare(job, 'sandbox')).precheck).toMatchObject({ toCheck: 200, cached: 200 });
    const reread = await cleaner.prepare(store.getJob(job.id)!, 'live');
    expect(reread).toMatchObject({ keyMode: 'live', precheck: { toCheck: 200, cached: 0 } });
  });

  it('asks the service nothing for a list it knows wholly, and starts none that is on its way', async () => {
    // c.csv's 200 addresses have live verdicts from the test before.
    const calls = () => [...livePeer.calls.values()].reduce((sum, n) => sum + n, 0);
    const before = calls();
    let starts = 0;
    let cost: Cost | undefined;
    const { job, exported } = await cleaner.cleanFile(
      { mode: 'live', start: async () => ((starts += 1), live()) },
      { inputPath: join(root, 'c.csv'), settings: jobSettings(), policy: { restart: true }, outDir: root },
      { onCost: (told) => (cost = told) },
    );
    expect(starts).toBe(0);
    expect(calls()).toBe(before);
    expect(cost).toEqual({ checks: 0, cached: 200, mode: 'live', covered: true });
    expect(job.phase).toBe('done');
    expect(exported.summary).toMatchObject({ rows: 200, cached: 200, billed: 0 });
    const rows = Papa.parse<Record<string, string>>(
      (await readFile(exported.annotatedPath, 'utf8')).replace(/^\uFEFF/, ''),
      {
        header: true,
        skipEmptyLines: true,
      },
    ).data;
    expect(rows.map((row) => row.sift_source)).toEqual(Array(200).fill('cache'));
  });

  it('keeps no address in clear in its file', async () => {
    await cleaner.settled();
    const files = ['verdict-cache.sqlite', 'verdict-cache.sqlite-wal'].map((name) => join(root, 'data', name));
    const bytes = Buffer.concat(await Promise.all(files.filter(existsSync).map((path) => readFile(path))));
    expect(bytes.length).toBeGreaterThan(10_000);
    const text = bytes.toString('latin1').toLowerCase();
    for (const address of [...listA, ...fresh, ...listC]) expect(text.includes(address)).toBe(false);
    for (const domain of ['shop1.example', 'mall1.example', 'fair1.example']) expect(text).not.toContain(domain);
  });
});
