// Triage on live verdicts from Sift's own engine against mail servers on loopback: a list with every kind
// of row (a catch-all at Google, at Microsoft and at a small server; valid, role, free, a likely typo, a
// full mailbox) scores as the table says, and cleaning it again with several thresholds writes exactly the
// expected rows with no new check and no new charge; a later list reuses a verdict (valid at an earlier
// check, and when) and scores it so, and one that reuses nothing counts the earlier valid check; a weights
// file changes scores, and nothing else.
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Papa from 'papaparse';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startEngineService, type EngineRun } from '../../support/engine-harness.ts';
import { startMailWorld, type MailWorld } from '../../support/mail-world.ts';
import { runSiftHere } from '../../support/run-sift-here.ts';

let world: MailWorld;
let run: EngineRun;

beforeAll(async () => {
  world = await startMailWorld({
    hosts: {
      // Each catch-all accepts every name; the engine's probe of a made-up name finds that out.
      'aspmx.l.google.com': { ip: '127.0.0.141', others: 'accept' },
      'contoso-test.mail.protection.outlook.com': { ip: '127.0.0.142', others: 'accept' },
      'mx.small.test': { ip: '127.0.0.143', others: 'accept' },
      'gmail-smtp-in.l.google.com': { ip: '127.0.0.144', mailboxes: { bob: 'accept' }, others: 'reject' },
      'mx.firm.test': {
        ip: '127.0.0.145',
        mailboxes: { ann: 'accept', info: 'accept', full: 'full' },
        others: 'reject',
      },
      'mx.typo.test': { ip: '127.0.0.146', mailboxes: { cat: 'accept' }, others: 'reject' },
    },
    domains: {
      'workspace.test': { mx: ['aspmx.l.google.com'] },
      'contoso.test': { mx: ['contoso-test.mail.protection.outlook.com'] },
      'small.test': { mx: ['mx.small.test'] },
      'gmail.com': { mx: ['gmail-smtp-in.l.google.com'] },
      'firm.test': { mx: ['mx.firm.test'] },
      'gamil.com': { mx: ['mx.typo.test'] },
    },
  });
  run = await startEngineService(world);
});
afterAll(async () => {
  await run?.service.close();
  await world?.close();
});

const list = `name,email
Ann,ann@firm.test
Info,info@firm.test
Full,full@firm.test
Bob,bob@gmail.com
Cat,cat@gamil.com
Dan,dan@workspace.test
Eve,eve@contoso.test
Fay,fay@small.test
`;

const rows = (text: string) =>
  Papa.parse<Record<string, string>>(text.replace(/^\uFEFF/, ''), { header: true, skipEmptyLines: true }).data;
const rcpts = () => Object.values(world.logs).reduce((sum, log) => sum + log.rcpts.length, 0);
const spent = async () => {
  const account = await run.service.dashboard.account();
  return 100 - account.freeRemaining + (1000 - account.balance);
};

it('scores every kind of row, and keeps by threshold without checking or charging again', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'sift-triage-'));
  const input = join(dir, 'people.csv');
  await writeFile(input, list);
  const env = { SIFT_DATA_DIR: join(dir, 'data'), SIFT_API_KEY: run.key };
  const clean = (keep: string, more: string[] = []) =>
    runSiftHere(['clean', input, '--base-url', run.service.baseUrl, '--keep', keep, '--remove', 'none', ...more], env);
  const kept = async () => rows(await readFile(join(dir, 'people.cleaned.csv'), 'utf8')).map((row) => row.name);

  const first = await clean('valid,catch_all');
  expect(first.code, first.stderr).toBe(0);
  const annotated = rows(await readFile(join(dir, 'people.annotated.csv'), 'utf8'));
  const scored = Object.fromEntries(
    annotated.map((row) => [row.name, [row.sift_result, row.sift_score, row.sift_score_reasons]]),
  );
  expect(scored).toEqual({
    Ann: ['valid', '90', 'valid=90'],
    Info: ['valid', '75', 'valid=90;role=-15'],
    Full: ['unknown', '15', 'unknown=40;mailbox_full=-25'],
    Bob: ['valid', '85', 'valid=90;free=-5'],
    Cat: ['valid', '60', 'valid=90;typo=-30'],
    Dan: ['catch_all', '65', 'catch_all=55;catch_all_google=10'],
    Eve: ['catch_all', '45', 'catch_all=55;catch_all_microsoft=-10'],
    Fay: ['catch_all', '55', 'catch_all=55'],
  });
  expect(await kept()).toEqual(['Ann', 'Info', 'Bob', 'Cat', 'Dan', 'Eve', 'Fay']);
  const [asked, charged] = [rcpts(), await spent()];
  expect(charged).toBe(7);

  for (const [keep, expected] of [
    ['valid:80,catch_all:60', ['Ann', 'Bob', 'Dan']],
    ['valid,catch_all:50,unknown:10', ['Ann', 'Info', 'Full', 'Bob', 'Cat', 'Dan', 'Fay']],
    ['catch_all:46', ['Dan', 'Fay']],
  ] as const) {
    const again = await clean(keep);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).toContain('nothing is sent');
    expect(await kept(), keep).toEqual(expected);
  }
  expect([rcpts(), await spent()]).toEqual([asked, charged]);

  // Other points for one line (a file for this run): Eve's score moves, and what it keeps; nothing else does.
  const weights = join(dir, 'weights.json');
  await writeFile(weights, JSON.stringify({ moves: { catch_all_microsoft: 0 } }));
  expect((await clean('catch_all:50', ['--score-weights', weights])).code).toBe(0);
  expect(await kept()).toEqual(['Dan', 'Eve', 'Fay']);
  const reweighed = rows(await readFile(join(dir, 'people.annotated.csv'), 'utf8'));
  expect(reweighed.find((row) => row.name === 'Eve')).toMatchObject({
    sift_score: '55',
    sift_score_reasons: 'catch_all=55;catch_all_microsoft=0',
  });
  const unchanged = (all: Record<string, string>[]) =>
    all.map(({ sift_score: _score, sift_score_reasons: _reasons, ...rest }) => rest);
  expect(unchanged(reweighed)).toEqual(unchanged(annotated));
  const summary = JSON.parse(await readFile(join(dir, 'people.summary.json'), 'utf8'));
  expect(summary.score_weights).toEqual({ moves: { catch_all_microsoft: 0 } });
  await writeFile(weights, JSON.stringify({ moves: { role: -500 } }));
  const refused = await clean('valid', ['--score-weights', weights]);
  expect(refused.code).toBe(2);
  expect(refused.stderr).toContain('moves.role');
  expect([rcpts(), await spent()]).toEqual([asked, charged]);

  // A later list: Ann's verdict is reused from the earlier check (and says when); only the new address is sent.
  const later = join(dir, 'later.csv');
  await writeFile(later, 'name,email\nAnn,ann@firm.test\nNew,new@firm.test\n');
  const next = await runSiftHere(['clean', later, '--base-url', run.service.baseUrl], env);
  expect(next.code, next.stderr).toBe(0);
  const reused = rows(await readFile(join(dir, 'later.annotated.csv'), 'utf8'));
  expect(reused[0]).toMatchObject({
    sift_source: 'cache',
    sift_cached_on: new Date().toISOString().slice(0, 10),
    sift_score: '85',
    sift_score_reasons: 'valid=90;reused=-5',
  });
  expect(reused[1]).toMatchObject({ sift_result: 'invalid', sift_source: 'checked', sift_score: '0' });
  expect(await spent()).toBe(charged + 1);

  // Reuse nothing (--max-age 0): Ann is checked again, and her earlier valid check counts for her.
  const recheck = join(dir, 'recheck.csv');
  await writeFile(recheck, 'name,email\nAnn,ann@firm.test\n');
  expect((await runSiftHere(['clean', recheck, '--base-url', run.service.baseUrl, '--max-age', '0'], env)).code).toBe(
    0,
  );
  expect(rows(await readFile(join(dir, 'recheck.annotated.csv'), 'utf8'))[0]).toMatchObject({
    sift_source: 'checked',
    sift_cached_on: new Date().toISOString().slice(0, 10),
    sift_score: '100',
    sift_score_reasons: 'valid=90;valid_earlier=10',
  });
  expect(await spent()).toBe(charged + 2);
}, 120_000);
