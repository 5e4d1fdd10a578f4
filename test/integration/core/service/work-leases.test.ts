// Shared work is held on short leases that the holder renews while it works: a slow round keeps its
// chunks and domains, a holder that stops renewing loses them within a lease, and the tables that would
// otherwise grow with every host and domain ever met are pruned.
import { afterEach, describe, expect, it } from 'vitest';
import { forgetWhatOnlyGrows } from '../../../../electron/core/service/service-presence.ts';
import { dueDomains, renewDomainLeases } from '../../../../electron/core/service/store/probe-queue-store.ts';
import { registerProcess } from '../../../../electron/core/service/store/service-processes-store.ts';
import {
  claimChunks,
  makeChunks,
  releaseChunk,
  renewChunks,
} from '../../../../electron/core/service/store/work-chunks-store.ts';
import { openServiceStore } from '../../../../electron/core/service/verification-service.ts';
import { whileRenewing } from '../../../../electron/core/service/work-leases.ts';
import { testServicePlace } from '../../../support/service-harness.ts';

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

async function store() {
  const opened = await openServiceStore(await testServicePlace());
  closers.push(() => opened.db.close());
  for (const id of ['proc_a', 'proc_b']) await registerProcess(opened.db, { id, role: 'worker', host: 'test', pid: 1 });
  return opened.db;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('work leases', () => {
  it('keeps a slow round’s chunks while it renews them, and lets them go once it stops', async () => {
    const db = await store();
    const lease = 300;
    await makeChunks(db, 'bat_slow', 3000);
    const mine = await claimChunks(db, 'bat_slow', 'proc_a', Date.now(), Date.now() + lease, 2);
    expect(mine.map((range) => range.chunk)).toEqual([0, 1]);
    const takenMeanwhile: number[] = [];
    await whileRenewing(
      lease,
      () => renewChunks(db, 'bat_slow', 'proc_a', mine, Date.now() + lease),
      async () => {
        // Four leases long: without the renewals, the other worker would take both chunks.
        for (let i = 0; i < 4; i += 1) {
          await sleep(lease);
          const claimed = await claimChunks(db, 'bat_slow', 'proc_b', Date.now(), Date.now() + lease, 3);
          takenMeanwhile.push(...claimed.filter((range) => range.chunk < 2).map((range) => range.chunk));
          for (const range of claimed) await releaseChunk(db, 'bat_slow', 'proc_b', range);
        }
      },
    );
    expect(takenMeanwhile).toEqual([]);

    // No more renewals (a crash): within a lease, the other worker takes them and learns whose they were.
    await sleep(lease + 50);
    const taken = await claimChunks(db, 'bat_slow', 'proc_b', Date.now(), Date.now() + lease, 3);
    expect(taken.filter((range) => range.chunk < 2)).toEqual([
      expect.objectContaining({ chunk: 0, takenFrom: 'proc_a' }),
      expect.objectContaining({ chunk: 1, takenFrom: 'proc_a' }),
    ]);
    // A chunk handed back is not a take-over.
    expect(taken.find((range) => range.chunk === 2)?.takenFrom).toBeUndefined();
  });

  it('renews only the live domains a process holds', async () => {
    const db = await store();
    const now = Date.now();
    await db.run('INSERT INTO probe_domains (domain, next_at, lease_owner) VALUES (?, ?, ?), (?, ?, ?)', [
      'held.test',
      now + 300,
      'proc_a',
      'other.test',
      now + 300,
      'proc_b',
    ]);
    await renewDomainLeases(db, 'proc_a', ['held.test', 'other.test'], now + 10_000);
    expect(await dueDomains(db, now + 400, 10)).toEqual(['other.test']);
  });

  it('forgets full token buckets, idle mail servers and expired domain findings, and keeps the rest', async () => {
    const db = await store();
    const now = Date.now();
    const day = 24 * 60 * 60_000;
    await db.run('INSERT INTO host_tokens (bucket, tokens, at) VALUES (?, 1, ?), (?, 1, ?)', [
      'live:old.test',
      now - 120_000,
      'live:busy.test',
      now - 100,
    ]);
    await db.run(
      `INSERT INTO mail_hosts (budget_key, rate, next_slot_at, backoff_until) VALUES
       ('server:10.0.0.1', 2, ?, 0), ('server:10.0.0.2', 1, ?, 0), ('server:10.0.0.3', 1, ?, ?),
       ('server:10.0.0.4', 2, ?, 0)`,
      [now - 2 * day, now - 60_000, now - 2 * day, now + 60_000, now - 2 * day],
    );
    // 10.0.0.4 has a connection open: it stays whatever its age.
    await db.run(
      "INSERT INTO mail_host_connections (budget_key, owner, open) VALUES ('server:10.0.0.4', 'proc_a', 1), ('server:10.0.0.1', 'proc_b', 0)",
    );
    await db.run(
      `INSERT INTO mail_domains (domain, route, route_expires_at, catch_all, catch_all_expires_at) VALUES
       ('gone.test', '{}', ?, 0, ?), ('route.test', '{}', ?, NULL, 0), ('catchall.test', NULL, 0, 1, ?)`,
      [now - 1000, now - 1000, now + 60_000, now + 60_000],
    );
    await forgetWhatOnlyGrows(db, now);
    const column = async (query: string) => (await db.all<{ v: string }>(query)).map((row) => row.v).sort();
    expect(await column('SELECT bucket AS v FROM host_tokens')).toEqual(['live:busy.test']);
    expect(await column('SELECT budget_key AS v FROM mail_hosts')).toEqual([
      'server:10.0.0.2',
      'server:10.0.0.3',
      'server:10.0.0.4',
    ]);
    expect(await column('SELECT owner AS v FROM mail_host_connections')).toEqual(['proc_a']);
    expect(await column('SELECT domain AS v FROM mail_domains')).toEqual(['catchall.test', 'route.test']);
  });
});
