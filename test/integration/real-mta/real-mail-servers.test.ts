// Live checks against the mail servers the internet runs, from Debian's packages, each on its own
// loopback address, with the project's DNS test server saying which serves which domain: Postfix
// (mailboxes, unknown users, a catch-all domain, STARTTLS with a self-signed certificate, postgrey,
// a recipient rate limit, sites refusing our client by policy), Exim (one connection at a time per
// client; a site refusing us at connect) and OpenSMTPD. Their own logs say how the prober behaved.
// Needs root and the servers (test/real-mta/install-mail-servers.sh, which .ci/run runs); where they are
// missing the suite is skipped with what is missing, unless SIFT_REAL_MTA=required (CI) makes that fail.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { senderRefusalReasons } from '../../../electron/common/reason-words.ts';
import { untilPrinted } from '../../support/printed.ts';
import { runSift } from '../../support/run-sift.ts';
import { runBatch, startEngineService, type EngineRun } from '../../support/engine-harness.ts';
import { testServicePlace } from '../../support/service-harness.ts';
import { startMailWorld, type MailWorld } from '../../support/mail-world.ts';
import { startExim } from '../../support/real-mta/exim.ts';
import { missingMailServers, type RunningServer } from '../../support/real-mta/mta-process.ts';
import { startOpenSmtpd } from '../../support/real-mta/opensmtpd.ts';
import { postfixSessions, startPostfix } from '../../support/real-mta/postfix.ts';
import { estimateRecorder } from '../../support/real-mta/estimates.ts';

const missing = missingMailServers();
if (missing.length > 0 && process.env.SIFT_REAL_MTA === 'required') {
  throw new Error(`The real mail servers are required here, and missing: ${missing.join('; ')}`);
}
if (missing.length > 0) console.warn(`Real mail servers skipped; missing: ${missing.join('; ')}`);

const hosts = {
  'mx.postfix.test': '127.0.0.31',
  'mx.exim.test': '127.0.0.32',
  'mx.opensmtpd.test': '127.0.0.33',
  'mx.grey.test': '127.0.0.34',
  'mx.rated.test': '127.0.0.35',
  'mx.rationed.test': '127.0.0.36',
  'mx.listed-a.test': '127.0.0.41',
  'mx.listed-b.test': '127.0.0.42',
  'mx.listed-c.test': '127.0.0.43',
  'mx.unverified.test': '127.0.0.44',
};
const mxOf: Record<string, keyof typeof hosts> = {
  'postfix.test': 'mx.postfix.test',
  'catchall.test': 'mx.postfix.test',
  'exim.test': 'mx.exim.test',
  'exim2.test': 'mx.exim.test',
  'opensmtpd.test': 'mx.opensmtpd.test',
  'grey.test': 'mx.grey.test',
  'rated.test': 'mx.rated.test',
  'rationed.test': 'mx.rationed.test',
  'listed-a.test': 'mx.listed-a.test',
  'listed-b.test': 'mx.listed-b.test',
  'listed-c.test': 'mx.listed-c.test',
  'unverified.test': 'mx.unverified.test',
};
const refusals = {
  spamhaus: '554 5.7.1 Service unavailable; Client host [127.0.0.1] blocked using zen.spamhaus.org',
  spamcop: '554 5.7.1 Service unavailable; Client host [127.0.0.1] blocked using bl.spamcop.net',
  microsoft: '5.7.606 Access denied, banned sending IP [$sender_host_address]',
  // Postfix's reject_unverified_sender while it checks the return path (its default unverified_sender_reply
  // 450, postconf(5); the words as issue 60's set had them), served from an access table here.
  unverified: '450 4.1.7 Sender address rejected: unverified address: Address verification in progress',
};

let world: MailWorld;
const servers: Record<string, RunningServer> = {};
const nobodies = (count: number, domain: string) => Array.from({ length: count }, (_, i) => `nobody${i}@${domain}`);
/** Postfix's smtpd_client_recipient_rate_limit: 4 recipients per 3 s per client, and 10 mailboxes behind it. */
const rated = Array.from({ length: 10 }, (_, i) => `r${i}`);
/** A stricter one, as the issue met it: 6 recipients per 20 s, and 14 mailboxes behind it. */
const rationedLimit = { max: 6, perSeconds: 20 };
const rationed = Array.from({ length: 14 }, (_, i) => `r${i}`);
/** Eight more mailboxes there, for a batch after the service has learned the window and started again. */
const rationedLater = Array.from({ length: 8 }, (_, i) => `r${rationed.length + i}`);
/** The least time the limit lets 14 through in: 6 at once, 6 a window later, the last 2 two windows later. */
const rationedLimitSeconds = Math.floor((rationed.length - 1) / rationedLimit.max) * rationedLimit.perSeconds;

describe.skipIf(missing.length > 0)('live checks against real mail servers', () => {
  beforeAll(async () => {
    world = await startMailWorld({
      hosts: Object.fromEntries(Object.entries(hosts).map(([name, ip]) => [name, { ip, greeting: 'closed' as const }])),
      domains: Object.fromEntries(Object.entries(mxOf).map(([domain, mx]) => [domain, { mx: [mx] }])),
    });
    const port = world.smtpPort;
    const starting = [
      startPostfix({
        name: 'mx.postfix.test',
        ip: hosts['mx.postfix.test'],
        port,
        domains: { 'postfix.test': ['alice', 'bob'], 'catchall.test': '*' },
        tls: true,
        refusingListeners: {
          [hosts['mx.listed-a.test']]: refusals.spamhaus,
          [hosts['mx.listed-c.test']]: refusals.spamcop,
          [hosts['mx.unverified.test']]: refusals.unverified,
        },
      }),
      startPostfix({
        name: 'mx.grey.test',
        ip: hosts['mx.grey.test'],
        port,
        domains: { 'grey.test': ['gina'] },
        greylistSeconds: 8,
      }),
      startPostfix({
        name: 'mx.rated.test',
        ip: hosts['mx.rated.test'],
        port,
        domains: { 'rated.test': rated },
        recipientRate: { max: 4, perSeconds: 3 },
      }),
      startPostfix({
        name: 'mx.rationed.test',
        ip: hosts['mx.rationed.test'],
        port,
        domains: { 'rationed.test': [...rationed, ...rationedLater] },
        recipientRate: rationedLimit,
      }),
      startExim({
        name: 'mx.exim.test',
        ip: hosts['mx.exim.test'],
        port,
        domains: ['exim.test', 'exim2.test'],
        mailboxes: ['alice', 'carol'],
        maxPerHost: 1,
      }),
      startExim({
        name: 'mx.listed-b.test',
        ip: hosts['mx.listed-b.test'],
        port,
        domains: ['listed-b.test'],
        mailboxes: ['ann'],
        refuseAtConnect: refusals.microsoft,
      }),
      startOpenSmtpd({
        name: 'mx.opensmtpd.test',
        ip: hosts['mx.opensmtpd.test'],
        port,
        domain: 'opensmtpd.test',
        mailboxes: ['dave', 'erin'],
      }),
    ];
    // Each kept as soon as it is up, so one that fails to start leaves none of the others running.
    await Promise.all(starting.map((start) => start.then((server) => (servers[server.name] = server))));
  }, 120_000);
  afterAll(async () => {
    await Promise.all(Object.values(servers).map((server) => server.stop()));
    await world?.close();
  });

  const engine = () => ({
    timeoutMs: 8000,
    perHostRate: 5,
    perHostConcurrency: 2,
    greylistRetryMs: [10_000, 5000, 5000],
    connectRetryMs: 1000,
    backoffMs: 3000,
  });

  describe('one batch across every server', () => {
    let run: EngineRun;
    let batch: Awaited<ReturnType<typeof runBatch>>;
    let estimates: ReturnType<ReturnType<typeof estimateRecorder>['judge']>;
    const emails = [
      'alice@postfix.test',
      'bob@postfix.test',
      ...nobodies(14, 'postfix.test'),
      'anyone@catchall.test',
      'someone@catchall.test',
      'gina@grey.test',
      ...rated.map((local) => `${local}@rated.test`),
      'alice@exim.test',
      'carol@exim.test',
      ...nobodies(3, 'exim.test'),
      'alice@exim2.test',
      ...nobodies(3, 'exim2.test'),
      'dave@opensmtpd.test',
      'erin@opensmtpd.test',
      ...nobodies(2, 'opensmtpd.test'),
      'ann@listed-a.test',
      'bob@listed-a.test',
    ];
    beforeAll(async () => {
      run = await startEngineService(world, engine());
      const recorder = estimateRecorder();
      batch = await runBatch(run, emails, 240_000, { onStatus: recorder.onStatus, everyMs: 500 });
      estimates = recorder.judge();
    }, 300_000);
    afterAll(() => run?.service.close());

    it('gives each address the verdict its server gave', () => {
      const { rows, status } = batch;
      expect(status.status).toBe('complete');
      const result = (email: string) => rows.get(email)?.result;
      for (const email of ['alice@postfix.test', 'bob@postfix.test', 'gina@grey.test', 'alice@exim.test']) {
        expect(result(email), email).toBe('valid');
      }
      for (const email of ['carol@exim.test', 'alice@exim2.test', 'dave@opensmtpd.test', 'erin@opensmtpd.test']) {
        expect(result(email), email).toBe('valid');
      }
      for (const local of rated) expect(result(`${local}@rated.test`), local).toBe('valid');
      for (const domain of ['postfix.test', 'exim.test', 'exim2.test', 'opensmtpd.test']) {
        for (const email of nobodies(domain === 'postfix.test' ? 14 : domain === 'opensmtpd.test' ? 2 : 3, domain)) {
          expect(rows.get(email), email).toMatchObject({
            result: 'invalid',
            reason: 'mailbox_not_found',
            billed: true,
          });
        }
      }
      expect(result('anyone@catchall.test')).toBe('catch_all');
      expect(result('someone@catchall.test')).toBe('catch_all');
      // One domain refusing us is that domain's policy: its rows are unknown and free.
      for (const email of ['ann@listed-a.test', 'bob@listed-a.test']) {
        expect(rows.get(email)).toMatchObject({ result: 'unknown', reason: 'sender_blocklisted', billed: false });
      }
      // STARTTLS with a self-signed certificate (Postfix's own, Exim's made at start): used, and said.
      expect(rows.get('alice@postfix.test')!.smtp_tls).toBe('certificate_not_trusted');
      expect(rows.get('alice@exim.test')!.smtp_tls).toBe('certificate_not_trusted');
    });

    it('never sends a message: no server saw DATA or BDAT', async () => {
      for (const name of ['mx.postfix.test', 'mx.grey.test', 'mx.rated.test']) {
        const sessions = postfixSessions(await servers[name]!.log());
        expect(sessions.length, name).toBeGreaterThan(0);
        for (const session of sessions) expect(session.commands, name).not.toMatch(/\b(data|bdat)=/);
      }
      const exim = await servers['mx.exim.test']!.log();
      expect(exim).toMatch(/SMTP connection from/);
      expect(exim).not.toMatch(/ <= |\bDATA\b/);
      const opensmtpd = await servers['mx.opensmtpd.test']!.log();
      expect(opensmtpd).toMatch(/smtp connected/);
      expect(opensmtpd).not.toMatch(/smtp message|DATA/);
    });

    it("stays well under Postfix's soft error limit in every session", async () => {
      const log = await servers['mx.postfix.test']!.log();
      const sessions = postfixSessions(log);
      // 15 refusals at postfix.test (14 addresses and the catch-all probe), spread over several sessions.
      expect(sessions.reduce((sum, session) => sum + session.rcptFailed, 0)).toBeGreaterThanOrEqual(15);
      expect(Math.max(...sessions.map((session) => session.rcptFailed))).toBeLessThanOrEqual(5);
      expect(log).not.toMatch(/too many errors/);
    });

    it('learns the pace Postfix allows when it says too many recipients, and keeps to it', async () => {
      const log = await servers['mx.rated.test']!.log();
      // Postfix logs its "450 4.7.1 Error: too many recipients" replies as this warning.
      const limited = log.match(/Recipient address rate limit exceeded/g) ?? [];
      expect(limited.length).toBeGreaterThan(0);
      expect(limited.length).toBeLessThanOrEqual(16);
    });

    it('allows Exim one connection when it allows one', async () => {
      const exim = await servers['mx.exim.test']!.log();
      const turnedAway = exim.match(/too many connections from that IP address/g) ?? [];
      expect(turnedAway.length).toBeLessThanOrEqual(4);
    });

    it('keeps an estimate that counts every wait it has scheduled', () => {
      expect(estimates.within, JSON.stringify(estimates)).toBe(true);
    });

    it('does not take one refusing domain for a refused sender', async () => {
      const account = (await run.api('GET', '/account')).body;
      expect(account).toMatchObject({ port_25: 'open', sender: { state: 'not_refused' } });
    });
  });
  it('finishes what a Postfix allowing 6 recipients per 20 s rations within 1.5 times what its limit allows, and keeps its pace', async () => {
    const place = await testServicePlace();
    const run = await startEngineService(world, engine(), undefined, place);
    onTestFinished(() => run.service.close());
    const started = Date.now();
    const recorder = estimateRecorder();
    const { status, rows } = await runBatch(
      run,
      rationed.map((local) => `${local}@rationed.test`),
      120_000,
      { onStatus: recorder.onStatus, everyMs: 500 },
    );
    const took = (Date.now() - started) / 1000;
    // While Postfix's window is probed for, the estimate says the pace is being learned, not a number; from a
    // third of the way on, each number is within 20% (or 5 s) of the time the batch then took.
    const estimates = recorder.judge();
    expect(estimates.learning).toBeGreaterThan(0);
    expect(estimates.within, JSON.stringify(estimates)).toBe(true);
    expect(status.status).toBe('complete');
    for (const row of rows.values()) expect(row).toMatchObject({ result: 'valid', billed: true });
    expect(took).toBeLessThanOrEqual(rationedLimitSeconds * 1.5);
    {
      const log = await servers['mx.rationed.test']!.log();
      // Postfix logs its "450 4.7.1 Error: too many recipients" replies as this warning.
      const limited = log.match(/Recipient address rate limit exceeded/g) ?? [];
      expect(limited.length).toBeGreaterThan(0);
      // Each refusal ends its conversation; the probes that find the window's end are one a session, and
      // they stop once it is found: a handful more than the first, never one per address asked.
      expect(limited.length).toBeLessThanOrEqual(16);
      // At most the catch-all probe's unknown user and one rate reply in a session.
      expect(Math.max(...postfixSessions(log).map((session) => session.rcptFailed))).toBeLessThanOrEqual(2);
    }

    // The pace learned is kept with the server: the service started again on the same data paces the next
    // batch there from its first address, so its estimate is a number from the start, and right.
    await run.service.close();
    const again = await startEngineService(world, engine(), undefined, place);
    onTestFinished(() => again.service.close());
    const refusedBefore = ((await servers['mx.rationed.test']!.log()).match(/rate limit exceeded/g) ?? []).length;
    const later = estimateRecorder();
    const second = await runBatch(
      again,
      rationedLater.map((local) => `${local}@rationed.test`),
      90_000,
      { onStatus: later.onStatus, everyMs: 500 },
    );
    expect(second.status.status).toBe('complete');
    for (const row of second.rows.values()) expect(row).toMatchObject({ result: 'valid', billed: true });
    const laterEstimates = later.judge({ from: 0 });
    expect(laterEstimates.learning).toBe(0);
    expect(laterEstimates.confirming).toBe(0);
    expect(laterEstimates.within, JSON.stringify(laterEstimates)).toBe(true);
    const refusedAfter = ((await servers['mx.rationed.test']!.log()).match(/rate limit exceeded/g) ?? []).length;
    expect(refusedAfter - refusedBefore).toBe(0);
  }, 240_000);

  it('ends a batch whose server refuses the sender for a while on its retry schedule, however many it holds', async () => {
    // Retries after 1, 2 and 4 s: every address is known to be unanswerable after 7 s and the tries' own time,
    // 114 addresses as in issue 60's batch.
    const schedule = [1000, 2000, 4000];
    const run = await startEngineService(world, { ...engine(), greylistRetryMs: schedule });
    onTestFinished(() => run.service.close());
    const emails = Array.from({ length: 114 }, (_, i) => `u${i}@unverified.test`);
    const started = Date.now();
    const { status, rows } = await runBatch(run, emails, 60_000);
    const took = (Date.now() - started) / 1000;
    console.info(`sender refused for a while: ${emails.length} addresses ended in ${took.toFixed(1)} s`);
    // One conversation a try, the refusal standing for every address of the domain: not one per group of
    // 20 addresses in turn at the host's pace (22 conversations and 30 s before).
    const refused = (await servers['mx.postfix.test']!.log())
      .split('\n')
      .filter((line) => line.includes('NOQUEUE: reject') && line.includes('@unverified.test'));
    expect(refused.length).toBeLessThanOrEqual(schedule.length + 1);
    expect(status.status).toBe('complete');
    // About the sender (Postfix puts its access table's words after "Client host rejected"), never billed.
    for (const row of rows.values()) {
      expect(row).toMatchObject({ result: 'unknown', billed: false });
      expect(senderRefusalReasons.has(row.reason as never), row.reason).toBe(true);
    }
    const scheduleSeconds = schedule.reduce((sum, ms) => sum + ms, 0) / 1000;
    expect(took).toBeLessThanOrEqual(scheduleSeconds * 1.5);
  }, 90_000);

  it('names a sender refused by three unrelated sites, in sift service, sift clean and GET /account', async () => {
    const data = await mkdtemp(join(tmpdir(), 'sift-refused-'));
    onTestFinished(() => rm(data, { recursive: true, force: true }));
    const env = { SIFT_DATA_DIR: data };
    const created = await runSift(['service', 'keys', 'create', '--live', '--data', data], env);
    const key = /svc_live_\S+/.exec(created.stdout)![0];
    await runSift(['service', 'top-up', '100', '--data', data], env);
    const [dnsHost, dnsPort] = world.resolver.split(':');
    const service = runSift(
      ['service', '--data', data, '--smtp-port', String(world.smtpPort), '--resolver', `${dnsHost}:${dnsPort}`],
      env,
      180_000,
    );
    // Stopped as Ctrl-C does, and waited for: it closes its data folder before the test's goes.
    onTestFinished(async () => {
      service.child.kill('SIGINT');
      await service;
    });
    const baseUrl = (await untilPrinted(service.child, /service at (http\S+)/, 'sift service'))[1]!;
    const list = join(data, 'list.csv');
    const emails = ['ann', 'bob', 'carol'].flatMap((local) =>
      ['listed-a', 'listed-b', 'listed-c'].map((site) => `${local}@${site}.test`),
    );
    await writeFile(list, `email\n${emails.join('\n')}\n`);
    const clean = await runSift(['clean', list, '--base-url', baseUrl], { ...env, SIFT_API_KEY: key }, 120_000);
    expect(clean.code, clean.stderr).toBe(0);
    expect(clean.stdout).toMatch(/9 unknown/);
    const told = /Mail servers refuse this service's sending address: servers of 3 unrelated domains/;
    expect(clean.stderr).toMatch(told);
    expect(clean.stderr).toMatch(/another way \(a SOCKS5 proxy, --proxy\)/);
    expect(clean.stderr).toMatch(
      /The refusal names (Spamhaus|SpamCop|Microsoft): ask for the address to be removed at https:\/\//,
    );
    // The service says it once, on its own, while it runs.
    await untilPrinted(service.child, told, 'sift service telling the refused sender', 15_000);
    const account = await fetch(`${baseUrl}/account`, { headers: { Authorization: `Bearer ${key}` } });
    expect(await account.json()).toMatchObject({ sender: { state: 'refused', refused_by: 3, way_out: 'direct' } });
  }, 240_000);
});
