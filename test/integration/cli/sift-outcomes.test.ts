// `sift outcomes` from a file of bounces: hard bounces go on the do-not-mail list and into the verdict
// cache, the next clean keeps them out unbilled, and the accuracy ledger sets them beside what Sift had
// said of each address (live verdicts kept in a real verdict cache); an outcome undone, and a source
// forgotten, take back what they did.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Papa from 'papaparse';
import { afterAll, describe, expect, it } from 'vitest';
import { cacheKeysOf } from '../../../electron/core/cache/index.ts';
import { openVerdictCache } from '../../../electron/core/cache/verdict-cache-store.ts';
import { runSiftHere } from '../../support/run-sift-here.ts';

const dirs: string[] = [];
afterAll(async () => Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true }))));

const checkedOn = Date.UTC(2026, 2, 3, 12);
const valid = Array.from({ length: 10 }, (_, i) => `v${i}@shop.example`);
const catchAll = Array.from({ length: 4 }, (_, i) => `c${i}@acme.example`);

async function dataFolderWithChecks() {
  const dir = await mkdtemp(join(tmpdir(), 'sift-outcomes-cli-'));
  dirs.push(dir);
  const data = join(dir, 'data');
  const key = cacheKeysOf(data);
  const cache = openVerdictCache(data);
  cache.remember('live', 'https://verify.example', checkedOn, [
    [
      ...valid.map((a) => [key(a), 'valid', 'accepted_email'] as const),
      ...catchAll.map((a) => [key(a), 'catch_all', 'accept_all_domain'] as const),
    ],
  ]);
  // A demo verdict is no check: the ledger leaves it out.
  cache.remember('sandbox', 'sift:sandbox', checkedOn, [[[key('demo@shop.example'), 'valid', null]]]);
  cache.close();
  return { dir, env: { SIFT_DATA_DIR: data } };
}

type Env = Record<string, string>;
type Listed = { address: string; kind: string; status: string | null; words: string | null; at: number };

/** Writes a service's export of these lines into the folder and imports it: what sift said. */
async function importExport(dir: string, env: Env, name: string, lines: string[]): Promise<string> {
  const file = join(dir, name);
  await writeFile(file, lines.join('\n'));
  const taken = await runSiftHere(['outcomes', 'import', file], env);
  expect(taken.code, taken.stderr).toBe(0);
  return taken.stdout;
}

const outcomesIn = async (env: Env) =>
  JSON.parse((await runSiftHere(['outcomes', 'list', '--json'], env)).stdout) as Listed[];

const bounces = [
  'Email,Bounce Type,Date,Reason',
  'V3@shop.example,Permanent,2026-03-10T08:00:00Z,550 5.1.1 <v3@shop.example>: Recipient address rejected: User unknown',
  'c1@acme.example,hard,2026-03-11,smtp; 550 5.1.1 mailbox unavailable',
  'c2@acme.example,Transient,2026-03-11,452 4.2.2 Mailbox full',
  'stranger@else.example,hard,2026-03-12,',
  'v5@shop.example,hard,2026-03-12,550 5.7.1 Service unavailable; Client host [192.0.2.9] blocked using zen.spamhaus.org',
  'v6@shop.example,complaint,2026-03-12,abuse',
  'not an address,hard,2026-03-12,',
].join('\n');

describe('sift outcomes', () => {
  it('imports bounces, keeps hard ones out of the next clean, and shows the ledger against Sift’s checks', async () => {
    const { dir, env } = await dataFolderWithChecks();
    const file = join(dir, 'ses-bounces.csv');
    // A blank line in it, as a spreadsheet shows a blank row: the bad row is named as the spreadsheet numbers it.
    const lines = bounces.split('\n');
    await writeFile(file, [...lines.slice(0, 4), '', ...lines.slice(4)].join('\n') + '\n');

    const imported = await runSiftHere(['outcomes', 'import', file], env);
    expect(imported.code, imported.stderr).toBe(0);
    expect(imported.stdout).toContain(
      '7 rows: 3 hard bounces (3 new on the do-not-mail list), 1 soft, 1 that blamed the sender, 1 not a bounce.',
    );
    expect(imported.stdout).toContain('row 9: not an address');
    const again = await runSiftHere(['outcomes', 'import', file], env);
    expect(again.stdout).toContain('(0 new on the do-not-mail list)');

    const ledger = JSON.parse((await runSiftHere(['outcomes', '--json'], env)).stdout);
    expect(ledger.byVerdict).toEqual([
      { result: 'catch_all', checked: 4, sent: 0, hard: 1, soft: 1, refused: 0 },
      { result: 'valid', checked: 10, sent: 0, hard: 1, soft: 0, refused: 1 },
    ]);
    expect(ledger.rows.map((row: { day: string }) => row.day)).toEqual(['2026-03-03', '2026-03-03']);
    expect(ledger.unchecked).toEqual({ hard: 1, soft: 0, refused: 0 });
    expect(ledger.sendsKnown).toBe(false);
    const words = await runSiftHere(['outcomes'], env);
    expect(words.stdout).toContain(
      'Of 4 addresses Sift called catch-all, 1 bounced (25%); of 10 valid, 1 bounced (10%).',
    );

    const suppressed = JSON.parse((await runSiftHere(['suppress', 'list', '--json'], env)).stdout);
    expect(suppressed.map((entry: { value: string }) => entry.value).sort()).toEqual([
      'c1@acme.example',
      'stranger@else.example',
      'v3@shop.example',
    ]);
    expect(suppressed.find((entry: { value: string }) => entry.value === 'v3@shop.example')).toMatchObject({
      reason: 'bounced',
      source: 'file:ses-bounces.csv (file)',
      detail: expect.stringContaining('User unknown'),
    });

    const list = join(dir, 'next.csv');
    await writeFile(list, 'email\nv3@shop.example\nv5@shop.example\nnew@shop.example\n');
    const clean = await runSiftHere(['clean', list, '--json', '--report'], env);
    expect(clean.code, clean.stderr).toBe(0);
    expect(JSON.parse(clean.stdout).summary).toMatchObject({ rows: 3, suppressed: 1, to_check: 2 });
    // The report sets the data folder's outcomes beside Sift's verdicts, as History does.
    const report = await readFile(join(dir, 'next.demo.report.html'), 'utf8');
    expect(report).toContain('<h2>What happened after earlier sends</h2>');
    expect(report).toContain('Of 4 addresses Sift called catch-all, 1 bounced (25%); of 10 valid, 1 bounced (10%).');

    const hard = JSON.parse((await runSiftHere(['outcomes', 'list', '--kind', 'hard', '--json'], env)).stdout);
    const v3 = hard.find((row: { address: string }) => row.address === 'v3@shop.example');
    expect(v3).toMatchObject({ checkedResult: 'valid', checkedAt: checkedOn });
    const shown = await runSiftHere(['outcomes', 'show', String(v3.id)], env);
    expect(shown.stdout).toContain('Sift had said: valid on 2026-03-03');
    // The status once: the server's words say it already.
    expect(shown.stdout).toContain('\n  550 5.1.1 <v3@shop.example>: Recipient address rejected: User unknown\n');
    const undone = await runSiftHere(['outcomes', 'undo', String(v3.id)], env);
    expect(undone.stdout).toContain("v3@shop.example's hard bounce of 2026-03-10; it will be checked again.");
    expect((await runSiftHere(['outcomes', 'undo', String(v3.id)], env)).code).toBe(2);
    const after = JSON.parse((await runSiftHere(['outcomes', '--json'], env)).stdout);
    expect(after.byVerdict.find((row: { result: string }) => row.result === 'valid')).toMatchObject({
      checked: 10,
      hard: 0,
    });
    expect((await runSiftHere(['suppress', 'list', '--search', 'v3@'], env)).stdout).toBe('');

    // Every outcome into a CSV of the person's own, with what Sift had said before and what was undone.
    const exported = join(dir, 'outcomes.csv');
    const exporting = await runSiftHere(['outcomes', 'export', exported], env);
    expect(exporting.stdout).toBe(`5 outcomes written to ${exported}.\n`);
    const csv = Papa.parse<Record<string, string>>(await readFile(exported, 'utf8'), {
      header: true,
      skipEmptyLines: true,
    }).data;
    expect(csv.map((row) => row.email).sort()).toEqual([
      'c1@acme.example',
      'c2@acme.example',
      'stranger@else.example',
      'v3@shop.example',
      'v5@shop.example',
    ]);
    expect(csv.find((row) => row.email === 'v3@shop.example')).toMatchObject({
      kind: 'hard',
      status: '5.1.1',
      server_words: '550 5.1.1 <v3@shop.example>: Recipient address rejected: User unknown',
      bounced_at: '2026-03-10T08:00:00.000Z',
      source: 'file:ses-bounces.csv',
      sift_said: 'valid',
      sift_checked_at: new Date(checkedOn).toISOString(),
      undone_at: expect.stringMatching(/^20\d\d-/),
    });
    // The status is read from the words where the file has no column of its own; none where they give none.
    const statusOf = (email: string) => csv.find((row) => row.email === email)?.status;
    expect(['c1@acme.example', 'c2@acme.example', 'v5@shop.example', 'stranger@else.example'].map(statusOf)).toEqual([
      '5.1.1',
      '4.2.2',
      '5.7.1',
      '',
    ]);
    expect((await runSiftHere(['outcomes', 'export'], env)).code).toBe(2);

    const forgot = await runSiftHere(['outcomes', 'forget', 'file:ses-bounces.csv'], env);
    expect(forgot.stdout).toContain('and 2 do-not-mail entries its bounces had made.');
    expect(JSON.parse((await runSiftHere(['suppress', 'list', '--json'], env)).stdout)).toEqual([]);
  }, 120_000);

  it('asks what the rows are when a file does not say, and refuses a bad --kind', async () => {
    const { dir, env } = await dataFolderWithChecks();
    const file = join(dir, 'suppressions.csv');
    await writeFile(file, 'email,created\nv1@shop.example,1773100800\nv2@shop.example,1773100800\n');
    const refused = await runSiftHere(['outcomes', 'import', file], env);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('has no column that says which bounces were hard and which soft');
    expect((await runSiftHere(['outcomes', 'import', file, '--kind', 'maybe'], env)).code).toBe(2);
    const taken = await runSiftHere(['outcomes', 'import', file, '--kind', 'hard'], env);
    expect(taken.stdout).toContain('2 rows: 2 hard bounces (2 new on the do-not-mail list)');
    const listed = JSON.parse((await runSiftHere(['outcomes', 'list', '--json'], env)).stdout);
    expect(listed.map((row: { at: number }) => row.at)).toEqual([1773100800000, 1773100800000]);
  }, 60_000);

  it("reads SendGrid's bounce list as it exports it: its status is the code, its time in seconds", async () => {
    // The fields of SendGrid's Bounces API (created: a unix time; status: "Enhanced SMTP bounce response";
    // https://www.twilio.com/docs/sendgrid/api-reference/bounces-api/retrieve-a-bounce), with a reason
    // whose code is in brackets and a status given as the reply code, as accounts' exports show them.
    const { dir, env } = await dataFolderWithChecks();
    const said = await importExport(dir, env, 'sendgrid-bounces.csv', [
      'created,email,reason,status',
      '1773100800,v1@shop.example,"550 Invalid recipient <v1@shop.example> (#5.1.1) ",5.1.1',
      '1773187200,v2@shop.example,"550 No Such User Here ",550',
      '1773187200,c3@acme.example,"452 4.2.2 The email account that you tried to reach is over quota",4.2.2',
    ]);
    expect(said).toContain('3 rows: 2 hard bounces (2 new on the do-not-mail list), 1 soft');
    const listed = await outcomesIn(env);
    expect(listed.map(({ address, kind, status, at }) => [address, kind, status, at]).sort()).toEqual([
      ['c3@acme.example', 'soft', '4.2.2', 1773187200000],
      ['v1@shop.example', 'hard', '5.1.1', 1773100800000],
      ['v2@shop.example', 'hard', null, 1773187200000],
    ]);
  }, 60_000);

  it("reads suppression lists whose one-word reason says what each row is: Amazon SES's, Telnyx's", async () => {
    // SES's SuppressedDestinationSummary: EmailAddress, Reason (BOUNCE or COMPLAINT), LastUpdateTime
    // (https://docs.aws.amazon.com/ses/latest/APIReference-V2/API_SuppressedDestinationSummary.html).
    const { dir, env } = await dataFolderWithChecks();
    const said = await importExport(dir, env, 'ses-suppressed.csv', [
      'EmailAddress,Reason,LastUpdateTime',
      'v1@shop.example,BOUNCE,2026-03-10T08:00:00Z',
      'v2@shop.example,COMPLAINT,2026-03-11T08:00:00Z',
    ]);
    expect(said).toContain('2 rows: 1 hard bounce (1 new on the do-not-mail list), 0 soft');
    expect(said).toContain('1 not a bounce');
    const [kept] = await outcomesIn(env);
    expect(kept).toMatchObject({ address: 'v1@shop.example', words: null, at: Date.UTC(2026, 2, 10, 8) });

    // Telnyx's suppression export has a status beside its reason (bounce, complaint, manual), and the
    // sender's address beside the recipient's (https://developers.telnyx.com/api-reference/email-suppressions/
    // export-suppressions-as-csv): the reason says the kind, and the recipient is the address.
    const fromTelnyx = await importExport(dir, env, 'email_blocks_export.csv', [
      'id,to,from,reason,source,scope,status,domain_id,created_at,updated_at,expires_at,group_id',
      'b1,v3@shop.example,news@sender.example,bounce,automatic,account,active,d1,2026-03-12T08:00:00Z,,,',
      'b2,v4@shop.example,news@sender.example,complaint,automatic,account,active,d1,2026-03-12T08:00:00Z,,,',
    ]);
    expect(fromTelnyx).toContain('2 rows: 1 hard bounce (1 new on the do-not-mail list), 0 soft');
    const suppressed = JSON.parse((await runSiftHere(['suppress', 'list', '--json'], env)).stdout) as {
      value: string;
    }[];
    expect(suppressed.map((entry) => entry.value).sort()).toEqual(['v1@shop.example', 'v3@shop.example']);
  }, 60_000);

  it("reads Mailgun's bounce list with no --kind: its code is the server's reply", async () => {
    // Mailgun's bounce list (address, code, error, created_at in RFC 2822), as its documentation's example
    // shows it (http://documentation.mailgun.net/api-bounces.html); Mailgun's own 605 for a send it dropped
    // as the address had bounced before (a real "failed" event, severity permanent, reason suppress-bounce:
    // https://pastebin.com/PBCjgYGX), a hard bounce; and its 607, a complaint, which is not taken for one.
    const { dir, env } = await dataFolderWithChecks();
    const said = await importExport(dir, env, 'mailgun-bounces.csv', [
      'address,code,error,created_at',
      'v7@shop.example,550,"5.1.1 <v7@shop.example>: Recipient address rejected: User unknown in virtual mailbox table","Sun, 05 Feb 2012 21:36:26 GMT"',
      'v8@shop.example,550,,"Wed, 15 Feb 2012 11:16:31 GMT"',
      'v6@shop.example,605,Not delivering to previously bounced address,"Fri, 02 Nov 2018 18:30:42 GMT"',
      'v9@shop.example,607,Not delivering to a user who marked your messages as spam,"Wed, 15 Feb 2012 11:16:31 GMT"',
    ]);
    expect(said).toContain(
      '4 rows: 3 hard bounces (3 new on the do-not-mail list), 0 soft, 0 that blamed the sender, 1 not a bounce.',
    );
    const listed = await outcomesIn(env);
    expect(listed.map(({ address, status, at }) => [address, status, at]).sort()).toEqual([
      ['v6@shop.example', null, Date.UTC(2018, 10, 2, 18, 30, 42)],
      ['v7@shop.example', '5.1.1', Date.UTC(2012, 1, 5, 21, 36, 26)],
      ['v8@shop.example', null, Date.UTC(2012, 1, 15, 11, 16, 31)],
    ]);
  }, 60_000);
});
