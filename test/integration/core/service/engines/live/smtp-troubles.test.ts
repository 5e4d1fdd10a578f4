// What goes wrong with real mail servers, on loopback: greylisting (retried on the schedule it asks for,
// with the test's clock moved on), a busy host (421: backed off, its rate halved), a connection dropped
// mid-dialogue, a server that never speaks, one that asks for a message, and a network where port 25
// is blocked.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { checkPort25 } from '../../../../../../electron/core/service/engines/live/port25-check.ts';
import { hostRate } from '../../../../../../electron/core/service/store/mail-hosts-store.ts';
import { budgetKeyOf } from '../../../../../../electron/core/service/engines/live/mail-hosts.ts';
import { startMailWorld, type MailWorld } from '../../../../../support/mail-world.ts';
import { waitFor } from '../../../../../support/service-harness.ts';
import { runBatch, startEngineService, type EngineRun } from '../../../../../support/engine-harness.ts';

const minute = 60_000;
let world: MailWorld | undefined;
let run: EngineRun | undefined;

afterEach(async () => {
  await run?.service.close();
  await world?.close();
  run = world = undefined;
});

describe('the local engine when mail servers make trouble', () => {
  it('retries a greylisted address when the server asked, and then trusts its answer', async () => {
    let offset = 0;
    const now = () => Date.now() + offset;
    world = await startMailWorld({
      now,
      hosts: { 'mx.grey.test': { ip: '127.0.0.2', mailboxes: { gina: 'greylist' }, greylistMs: 5 * minute } },
      domains: { 'grey.test': { mx: ['mx.grey.test'] } },
    });
    run = await startEngineService(world, { greylistRetryMs: [5 * minute, 10 * minute] }, now);
    const created = await run.api('POST', '/batches', { name: 'grey', emails: ['gina@grey.test'] });
    const id = created.body.id as string;
    const gina = () => world!.logs['mx.grey.test']!.rcpts.filter((rcpt) => rcpt.address === 'gina@grey.test');
    await waitFor(() => gina().length === 1);
    // Deferred: still pending, and not asked again before the server's few minutes are up.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect((await run.api('GET', `/batches/${id}`)).body.status).toBe('running');
    expect(gina()).toHaveLength(1);
    offset += 5 * minute + 1000;
    await waitFor(async () => (await run!.api('GET', `/batches/${id}`)).body.status === 'complete');
    const [row] = (await run.api('GET', `/batches/${id}/results`)).body.data;
    expect(row).toMatchObject({ result: 'valid', billed: true });
    expect(gina()).toHaveLength(2);
    expect(gina()[1]!.at - gina()[0]!.at).toBeGreaterThanOrEqual(5 * minute);
  });

  it('backs off a busy host, halves its rate, and gives up as unknown without billing', async () => {
    world = await startMailWorld({
      hosts: { 'mx.busy.test': { ip: '127.0.0.2', greeting: 'busy' } },
      domains: { 'busy.test': { mx: ['mx.busy.test'] } },
    });
    run = await startEngineService(world, { perHostRate: 8, backoffMs: 150, greylistRetryMs: [50, 50] });
    const { status, rows } = await runBatch(run, ['a@busy.test', 'b@busy.test']);
    expect(rows.get('a@busy.test')).toMatchObject({ result: 'unknown', reason: 'rate_limited', billed: false });
    expect(rows.get('a@busy.test')!.smtp_reply).toMatch(/^421/);
    expect(status.summary).toMatchObject({ unknown: 2, billed: 0 });
    // Three conversations, each ended by a 421: the rate was halved each time (8 → 4 → 2 → 1).
    expect(world.logs['mx.busy.test']!.connections).toBe(3);
    expect(await hostRate(run.service.db, budgetKeyOf({ name: 'mx.busy.test', addresses: ['127.0.0.2'] }))).toBe(1);
    expect((await run.api('GET', '/account')).body.free_remaining).toBe(100);
  });

  it('asks again about the addresses a dropped connection left unanswered', async () => {
    world = await startMailWorld({
      hosts: {
        'mx.drop.test': { ip: '127.0.0.2', mailboxes: { a1: 'accept', a2: 'accept', a3: 'accept' }, dropAfterRcpts: 2 },
      },
      domains: { 'drop.test': { mx: ['mx.drop.test'] } },
    });
    run = await startEngineService(world);
    const { rows } = await runBatch(run, ['a1@drop.test', 'a2@drop.test', 'a3@drop.test']);
    for (const email of ['a1@drop.test', 'a2@drop.test', 'a3@drop.test']) {
      expect(rows.get(email)).toMatchObject({ result: 'valid', billed: true });
    }
    expect(world.logs['mx.drop.test']!.connections).toBeGreaterThanOrEqual(2);
  });

  it('calls a server that never says a word "timeout", once others have answered', async () => {
    world = await startMailWorld({
      hosts: {
        'mx.ok.test': { ip: '127.0.0.2', others: 'accept' },
        'mx.mute.test': { ip: '127.0.0.3', greeting: 'silent' },
      },
      domains: { 'ok.test': { mx: ['mx.ok.test'] }, 'mute.test': { mx: ['mx.mute.test'] } },
    });
    run = await startEngineService(world, { timeoutMs: 300 });
    const { rows } = await runBatch(run, ['x@ok.test', 'y@mute.test']);
    expect(rows.get('y@mute.test')).toMatchObject({ result: 'unknown', reason: 'timeout', billed: false });
  });

  it('hangs up on a server that answers RCPT with "send the message", without another word', async () => {
    world = await startMailWorld({
      hosts: { 'mx.pushy.test': { ip: '127.0.0.2', greeting: 'pushy' } },
      domains: { 'pushy.test': { mx: ['mx.pushy.test'] } },
    });
    run = await startEngineService(world);
    const { status, rows } = await runBatch(run, ['a@pushy.test', 'b@pushy.test']);
    for (const email of ['a@pushy.test', 'b@pushy.test']) {
      expect(rows.get(email)).toMatchObject({ result: 'unknown', reason: 'server_error', billed: false });
      expect(rows.get(email)!.smtp_reply).toMatch(/^354 /);
    }
    expect(status.summary).toMatchObject({ unknown: 2, billed: 0 });
    // The first RCPT (the catch-all probe) got 354, and that was the last line Sift sent: no DATA, no
    // body, no other address, and one conversation only.
    const { commands, connections } = world.logs['mx.pushy.test']!;
    expect(connections).toBe(1);
    expect(commands.at(-1)).toMatch(/^RCPT TO:<sift-[0-9a-f]+@pushy\.test>$/);
    expect(commands.filter((command) => /^RCPT/i.test(command))).toHaveLength(1);
  });

  it('gives a batch up and refunds it when Sift itself keeps failing to check it', async () => {
    world = await startMailWorld({
      hosts: { 'mx.ok.test': { ip: '127.0.0.2', others: 'accept' } },
      domains: { 'ok.test': { mx: ['mx.ok.test'] } },
    });
    run = await startEngineService(world);
    // The store of mail-host budgets is gone (as after disk trouble): every conversation fails in Sift.
    await run.service.db.exec('DROP TABLE mail_hosts');
    const quiet = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      const { id, status } = await runBatch(run, ['a@ok.test', 'b@ok.test']);
      expect(status.status).toBe('failed');
      // The batch.failed event (and the dashboard) carry why.
      const stored = (await run.service.db.get<{ error: string }>('SELECT error FROM batches WHERE id = ?', [id]))!;
      expect(JSON.parse(stored.error).message).toMatch(/^Checking ok\.test failed: .*mail_hosts/);
    } finally {
      quiet.mockRestore();
    }
    expect(world.logs['mx.ok.test']!.connections).toBe(0);
    expect((await run.api('GET', '/account')).body).toMatchObject({ free_remaining: 100, balance: 1000 });
  });

  it('leaves no timer behind when it stops, so a command that used it exits at once', async () => {
    world = await startMailWorld({
      hosts: { 'mx.ok.test': { ip: '127.0.0.2', others: 'accept' } },
      domains: { 'ok.test': { mx: ['mx.ok.test'] } },
    });
    const timers = () => process.getActiveResourcesInfo().filter((kind) => kind === 'Timeout').length;
    const before = timers();
    run = await startEngineService(world);
    await runBatch(run, ['a@ok.test']);
    await run.service.close();
    run = undefined;
    expect(timers()).toBeLessThanOrEqual(before);
  });

  it('says port 25 is blocked when no mail host of several unrelated domains answers, and bills nothing', async () => {
    world = await startMailWorld({
      hosts: {
        'mx.one.test': { ip: '127.0.0.2', greeting: 'silent' },
        'mx.two.test': { ip: '127.0.0.3', greeting: 'closed' },
        'mx.three.test': { ip: '127.0.0.4', greeting: 'silent' },
      },
      domains: {
        'one.test': { mx: ['mx.one.test'] },
        'two.test': { mx: ['mx.two.test'] },
        'three.test': { mx: ['mx.three.test'] },
      },
    });
    run = await startEngineService(world, { timeoutMs: 300, greylistRetryMs: [100, 100, 100, 100] });
    const emails = ['a@one.test', 'b@one.test', 'c@two.test', 'd@three.test'];
    const { status, rows } = await runBatch(run, emails);
    for (const email of emails) {
      expect(rows.get(email)).toMatchObject({ result: 'unknown', reason: 'port_25_blocked', billed: false });
    }
    expect(status.summary).toMatchObject({ unknown: 4, billed: 0 });
    expect((await run.api('GET', '/account')).body).toMatchObject({ port_25: 'blocked', free_remaining: 100 });
    // A check made on purpose (as `sift service` does at start) comes to the same finding.
    const settings = { ...run.service.config.smtp, port25ProbeDomains: ['one.test', 'two.test', 'three.test'] };
    expect(await checkPort25(run.service.db, settings, Date.now)).toEqual({
      state: 'blocked',
      hosts: ['mx.one.test', 'mx.two.test', 'mx.three.test'],
    });
  });
});
