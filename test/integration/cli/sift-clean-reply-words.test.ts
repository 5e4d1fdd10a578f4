// What a person reads of a reply, after a live clean on Sift's own service: each row's reason in a sentence
// in the annotated file, and in the report why the unknown addresses are unknown, counting those a refused
// sender left unknown (servers of three unrelated domains refuse Sift's checking address by a blocklist).
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Papa from 'papaparse';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startEngineService, type EngineRun } from '../../support/engine-harness.ts';
import { startMailWorld, type MailWorld } from '../../support/mail-world.ts';
import { runSiftHere } from '../../support/run-sift-here.ts';

const listed = { code: 550, text: 'Rejected because 127.0.0.1 is in a black list at b.barracudacentral.org' };
const sites = ['one', 'two', 'three'];
let world: MailWorld;
let run: EngineRun;

beforeAll(async () => {
  world = await startMailWorld({
    hosts: {
      ...Object.fromEntries(
        sites.map((site, i) => [
          `mx.${site}.test`,
          { ip: `127.0.0.${121 + i}`, others: 'accept' as const, refuseClient: listed },
        ]),
      ),
      'mx.shop.test': { ip: '127.0.0.125', mailboxes: { ann: 'accept' }, others: 'reject' },
    },
    domains: {
      ...Object.fromEntries(sites.map((site) => [`${site}.test`, { mx: [`mx.${site}.test`] }])),
      'shop.test': { mx: ['mx.shop.test'] },
    },
  });
  run = await startEngineService(world);
});
afterAll(async () => {
  await run?.service.close();
  await world?.close();
});

it('says each reason in a sentence in the annotated file, and counts in the report what a refused sender left unknown', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'sift-reply-words-'));
  const list = join(dir, 'people.csv');
  await writeFile(list, 'email\nann@one.test\nbob@two.test\ncat@three.test\nann@shop.test\nzed@shop.test\n');
  const clean = await runSiftHere(['clean', list, '--base-url', run.service.baseUrl, '--report'], {
    SIFT_DATA_DIR: join(dir, 'data'),
    SIFT_API_KEY: run.key,
  });
  expect(clean.code, clean.stderr).toBe(0);

  const rows = Papa.parse<Record<string, string>>(await readFile(join(dir, 'people.annotated.csv'), 'utf8'), {
    header: true,
    skipEmptyLines: true,
  }).data;
  const byEmail = Object.fromEntries(rows.map((row) => [row.email!.replace(/^\uFEFF/, ''), row]));
  for (const email of ['ann@one.test', 'bob@two.test', 'cat@three.test']) {
    expect(byEmail[email]).toMatchObject({
      sift_result: 'unknown',
      sift_billed: 'false',
      sift_reason: 'sender_blocklisted',
      sift_reason_text:
        "The mail server refused Sift's checking address (it is on a blocklist); this says nothing about the address. Not charged.",
    });
  }
  expect(byEmail['zed@shop.test']).toMatchObject({
    sift_result: 'invalid',
    sift_reason: 'mailbox_not_found',
    sift_reason_text: 'The mail server says this mailbox does not exist.',
  });

  const report = await readFile(join(dir, 'people.report.html'), 'utf8');
  expect(report).toContain('<h2>Why 3 unknown addresses</h2>');
  expect(report).toMatch(
    /<p class="how how--warn" data-sender-refused><strong>3 unknown addresses were left unknown because mail servers refused Sift's checking address,/,
  );
  expect(report).toContain("or a refusal of Sift's own checking address for 3 of them");
});
