// `sift clean` end to end against the real service on loopback: outputs checked row by row
// against the service's own verdicts, billing, formula guarding and the exit codes.
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Papa from 'papaparse';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { VerificationService } from '../../../electron/core/service/verification-service.ts';
import { demoVerdictsNote } from '../../../electron/common/demo-verdicts.ts';
import { runSift } from '../../support/run-sift.ts';
import { runSiftHere } from '../../support/run-sift-here.ts';
import { apiClient, startTestService } from '../../support/service-harness.ts';

let service: VerificationService;
beforeAll(async () => {
  service = await startTestService();
});
afterAll(() => service.close());

const input = [
  'Name,Email,Notes',
  'Ann,valid.ann@example.com,=HYPERLINK("http://x")',
  'Bob,invalid.bob@example.com,',
  'Ann again,VALID.ANN@Example.com,duplicate',
  'Cat,catchall.cat@example.com,+44 20 7946 0000',
  'Dee,unknown.dee@example.com,@handle',
  'Eve,"Eve <valid.eve@example.org>",-',
  'Broken,broken@@example.com,',
  'Nobody,,',
  'Info,info@acme-example.com,',
  'Temp,valid.temp@mailinator.com,',
  'Typo,valid.typo@gamil.com,',
].join('\r\n');

async function workspace() {
  const dir = await mkdtemp(join(tmpdir(), 'sift-clean-'));
  const inputPath = join(dir, 'contacts.csv');
  await writeFile(inputPath, input);
  return { dir, inputPath, data: join(dir, 'data') };
}

const parse = (text: string) => Papa.parse<string[]>(text.replace(/^\uFEFF/, ''), { skipEmptyLines: true }).data;

describe('sift clean', () => {
  it('writes cleaned, annotated and summary outputs that agree with the service row by row', async () => {
    const { key, record } = await service.dashboard.createKey('live', 'cli');
    await service.dashboard.setKeyRateLimits(record.id, { batchStatus: { limit: 10_000, windowSeconds: 60 } });
    await service.dashboard.topUp(50);
    const before = await service.dashboard.account();
    const { dir, inputPath, data } = await workspace();
    const run = await runSift(
      ['clean', inputPath, '--base-url', service.baseUrl, '--keep', 'valid,catch_all', '--json'],
      { SIFT_API_KEY: key, SIFT_DATA_DIR: data },
    );
    expect(run.stderr).not.toContain(key);
    expect(run.code).toBe(0);
    const report = JSON.parse(run.stdout);

    // The service's own verdicts for this job's batch.
    const api = apiClient(service, key);
    const batchId = ((await service.db.get("SELECT id FROM batches WHERE name = 'contacts.csv'")) as { id: string }).id;
    const serviceRows = (await api('GET', `/batches/${batchId}/results?limit=1000`)).body.data as {
      email: string;
      result: string;
      billed: boolean;
    }[];
    const byAddress = new Map(serviceRows.map((row) => [row.email.toLowerCase(), row]));
    expect(serviceRows).toHaveLength(8); // unique, well-formed addresses only

    const annotated = parse(await readFile(join(dir, 'contacts.annotated.csv'), 'utf8'));
    const header = annotated[0]!;
    expect(header).toEqual([
      'Name',
      'Email',
      'Notes',
      'sift_result',
      'sift_billed',
      'sift_duplicate',
      'sift_role',
      'sift_disposable',
      'sift_reason',
      'sift_reason_text',
      'sift_suggestion',
      'sift_suggestion_accepted',
      'sift_source',
      'sift_cached_on',
      'sift_score',
      'sift_score_reasons',
    ]);
    const rows = annotated.slice(1).map((cells) => Object.fromEntries(header.map((name, i) => [name, cells[i] ?? ''])));
    expect(rows.map((row) => row.Name)).toEqual([
      'Ann',
      'Bob',
      'Ann again',
      'Cat',
      'Dee',
      'Eve',
      'Broken',
      'Nobody',
      'Info',
      'Temp',
      'Typo',
    ]);
    for (const row of rows) {
      const address = row.Email!.replace(/^.*<|>$/g, '').toLowerCase();
      const fromService = byAddress.get(address);
      if (fromService) {
        expect(row.sift_result).toBe(fromService.result);
        expect(row.sift_billed).toBe(String(fromService.billed && row.sift_duplicate === 'false'));
        expect(row).toMatchObject({ sift_source: 'checked', sift_cached_on: '' });
        // Its score starts where its verdict does (risk-score.ts), and says so first.
        expect(row.sift_score_reasons).toMatch(new RegExp(`^${fromService.result}=\\d+`));
        // A whole number from 0 to 100 (an empty cell is not a score), the sum of its reasons' points.
        expect(row.sift_score).toMatch(/^(100|\d{1,2})$/);
        const points = row.sift_score_reasons!.split(';').map((part) => Number(part.split('=')[1]));
        expect(Number(row.sift_score)).toBe(
          Math.max(
            0,
            Math.min(
              100,
              points.reduce((sum, value) => sum + value, 0),
            ),
          ),
        );
      } else {
        expect(['bad_syntax', 'no_address']).toContain(row.sift_result);
        expect(row.sift_billed).toBe('false');
        expect(row).toMatchObject({ sift_source: 'precheck', sift_cached_on: '' });
      }
    }
    const byName = Object.fromEntries(rows.map((row) => [row.Name, row]));
    expect(byName['Ann again']).toMatchObject({ sift_duplicate: 'true', sift_billed: 'false', sift_result: 'valid' });
    expect(byName.Broken).toMatchObject({
      sift_result: 'bad_syntax',
      sift_reason: 'syntax',
      sift_reason_text: 'This cannot be an email address.',
      sift_billed: 'false',
    });
    expect(byName.Nobody).toMatchObject({ sift_result: 'no_address', sift_billed: 'false' });
    expect(byName.Info).toMatchObject({ sift_role: 'true' });
    expect(byName.Temp).toMatchObject({ sift_disposable: 'true' });
    expect(byName.Typo).toMatchObject({ Email: 'valid.typo@gamil.com', sift_suggestion: 'valid.typo@gmail.com' });
    // The annotated copy is for a spreadsheet: formula cells are neutralised there.
    expect(byName.Ann!.Notes).toBe(`'=HYPERLINK("http://x")`);
    expect(byName.Cat!.Notes).toBe("'+44 20 7946 0000");
    expect(byName.Dee!.Notes).toBe("'@handle");
    expect(byName.Eve!.Notes).toBe("'-");

    const cleanedText = await readFile(join(dir, 'contacts.cleaned.csv'), 'utf8');
    expect(cleanedText.startsWith('\uFEFF')).toBe(true);
    const cleaned = parse(cleanedText);
    // Disposable addresses are left out of the cleaned list unless asked for.
    const kept = rows.filter(
      (row) =>
        ['valid', 'catch_all'].includes(row.sift_result!) &&
        row.sift_duplicate === 'false' &&
        row.sift_disposable === 'false',
    );
    expect(kept.length).toBeGreaterThan(3);
    expect(cleaned[0]).toEqual(['Name', 'Email', 'Notes']);
    expect(cleaned.slice(1).map((cells) => cells[0])).toEqual(kept.map((row) => row.Name));
    expect(cleaned.some((cells) => cells[0] === 'Temp')).toBe(false);
    // The cleaned list goes back into an email platform: its cells are as they were, the address normalised.
    const cleanedByName = Object.fromEntries(cleaned.map((cells) => [cells[0], cells]));
    expect(cleanedByName.Ann).toEqual(['Ann', 'valid.ann@example.com', '=HYPERLINK("http://x")']);
    expect(cleanedByName.Cat![2]).toBe('+44 20 7946 0000');
    expect(cleanedByName.Eve).toEqual(['Eve', 'valid.eve@example.org', '-']);

    const summary = JSON.parse(await readFile(join(dir, 'contacts.summary.json'), 'utf8'));
    // One funnel: every row counted once, and the annotated file's rows add up to the summary's numbers.
    const firsts = rows.filter((row) => row.sift_duplicate === 'false');
    const counted = (result: string) => firsts.filter((row) => row.sift_result === result).length;
    for (const verdict of ['valid', 'invalid', 'catch_all', 'unknown']) expect(summary[verdict]).toBe(counted(verdict));
    expect(summary).toMatchObject({
      rows: 11,
      no_address: counted('no_address'),
      bad_syntax: counted('bad_syntax'),
      duplicates: rows.filter((row) => row.sift_duplicate === 'true').length,
      to_check: 8,
      unverified: 0,
      billed: rows.filter((row) => row.sift_billed === 'true').length,
      role: 1,
      disposable: 1,
      typos: 1,
    });
    expect(summary.rows).toBe(summary.no_address + summary.bad_syntax + summary.duplicates + summary.to_check);
    expect(summary.to_check).toBe(summary.valid + summary.invalid + summary.catch_all + summary.unknown);
    expect([summary.no_address, summary.bad_syntax, summary.duplicates]).toEqual([1, 1, 1]);
    // Only definitive verdicts are billed: the one `unknown` of the eight is free.
    expect(summary.unknown).toBe(1);
    expect(summary.billed).toBe(7);
    expect(report.summary).toEqual(summary);
    const after = await service.dashboard.account();
    expect(before.freeRemaining + before.balance - (after.freeRemaining + after.balance)).toBe(7);
  });

  it('exits 2 for unusable input, writing nothing', async () => {
    const { dir, data } = await workspace();
    const empty = join(dir, 'empty.csv');
    await writeFile(empty, '');
    const run = await runSiftHere(['clean', empty], { SIFT_DATA_DIR: data });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('is empty');
    expect((await readdir(dir)).filter((name) => name.startsWith('empty.'))).toEqual(['empty.csv']);
    expect((await runSiftHere(['clean', join(dir, 'nope.csv')], { SIFT_DATA_DIR: data })).code).toBe(2);
    expect((await runSiftHere(['clean'], { SIFT_DATA_DIR: data })).code).toBe(2);
    expect((await runSiftHere(['clean', empty, '--keep', 'good'], { SIFT_DATA_DIR: data })).code).toBe(2);
  });

  it('exits 3 when the key is refused and 4 when credits run short, sending nothing', async () => {
    const { dir, inputPath, data } = await workspace();
    const refused = await runSiftHere(['clean', inputPath, '--base-url', service.baseUrl], {
      SIFT_API_KEY: 'svc_live_wrongwrongwrongwrong0000',
      SIFT_DATA_DIR: data,
    });
    expect(refused.code).toBe(3);
    expect(refused.stderr).toContain('svc_live_…0000');
    expect(refused.stderr).not.toContain('svc_live_wrongwrongwrongwrong0000');

    const { key } = await service.dashboard.createKey('live', 'poor');
    const spend = await service.dashboard.account();
    // Leave fewer credits than the list needs.
    await service.db.run('UPDATE account SET balance = 0, free_used = ? WHERE id = 1', [100 - 3]);
    const batchesBefore = ((await service.db.get('SELECT COUNT(*) AS n FROM batches')) as { n: number }).n;
    const short = await runSiftHere(['clean', inputPath, '--base-url', service.baseUrl, '--restart'], {
      SIFT_API_KEY: key,
      SIFT_DATA_DIR: data,
    });
    expect(short.code).toBe(4);
    expect(short.stderr).toMatch(/Not enough credits: 8 checks needed, 3 available/);
    expect(((await service.db.get('SELECT COUNT(*) AS n FROM batches')) as { n: number }).n).toBe(batchesBefore);
    expect(existsSync(join(dir, 'contacts.cleaned.csv'))).toBe(false);
    await service.db.run('UPDATE account SET balance = ?, free_used = ? WHERE id = 1', [
      spend.balance,
      100 - spend.freeRemaining,
    ]);
  });

  it('exits 5 when the service cannot be reached, and 2 without a key for a base URL', async () => {
    const { inputPath, data } = await workspace();
    expect((await runSiftHere(['clean', inputPath, '--base-url', service.baseUrl], { SIFT_DATA_DIR: data })).code).toBe(
      2,
    );
    const down = await runSiftHere(['clean', inputPath, '--base-url', 'http://127.0.0.1:1/v1'], {
      SIFT_API_KEY: 'svc_test_unreachable000000',
      SIFT_DATA_DIR: data,
    });
    expect(down.code).toBe(5);
    // What failed, in a sentence, and how to go on: never a bare error name.
    expect(down.stderr).toMatch(/^sift: POST \/batches could not reach the service at 127\.0\.0\.1:1 /m);
    expect(down.stderr).toContain(
      'contacts.csv --resume` to go on where it stopped (nothing is sent or billed twice).',
    );
  }, 120_000);

  it('keeps a list without a header row headerless, and names its columns in the annotated file', async () => {
    const { dir, data } = await workspace();
    const fixture = new URL('../../fixtures/import/no-header.csv', import.meta.url).pathname;
    const run = await runSiftHere(['clean', fixture, '--out', dir], { SIFT_DATA_DIR: data });
    expect(run.code).toBe(0);
    const cleaned = parse(await readFile(join(dir, 'no-header.demo.cleaned.csv'), 'utf8'));
    expect(cleaned).toEqual([
      ['valid.one@example.com', 'One'],
      ['valid.two@example.com', 'Two'],
    ]);
    const annotated = parse(await readFile(join(dir, 'no-header.demo.annotated.csv'), 'utf8'));
    expect(annotated[0]!.slice(0, 3)).toEqual(['column_1', 'column_2', 'sift_result']);
    expect(annotated).toHaveLength(4);
    expect(annotated[3]!.slice(0, 4)).toEqual(['not-an-address', 'Three', 'bad_syntax', 'false']);
  });

  it('keeps a row of empty cells, and skips only blank lines', async () => {
    const { dir, data } = await workspace();
    const path = join(dir, 'gaps.csv');
    await writeFile(path, 'email,name\nvalid.a@example.com,A\n,\n\n   \nvalid.b@example.com,B\n');
    expect((await runSiftHere(['clean', path], { SIFT_DATA_DIR: data })).code).toBe(0);
    const annotated = parse(await readFile(join(dir, 'gaps.demo.annotated.csv'), 'utf8'));
    expect(annotated.slice(1).map((row) => [row[0], row[1], row[2], row[7]])).toEqual([
      ['valid.a@example.com', 'A', 'valid', 'demo:accepted_email'],
      ['', '', 'no_address', ''],
      ['valid.b@example.com', 'B', 'valid', 'demo:accepted_email'],
    ]);
  });

  it('runs on its own service with no key and no base URL, and says its verdicts are demo verdicts', async () => {
    const { dir, inputPath, data } = await workspace();
    const run = await runSiftHere(['clean', inputPath], { SIFT_DATA_DIR: data });
    expect(run.code).toBe(0);
    expect(run.stderr).toContain('sandbox key: demo verdicts, no mail server is asked');
    expect(run.stdout).toContain('Demo verdicts: ');
    expect(run.stdout).toContain(demoVerdictsNote);
    // Nothing reads as a real check: no "Checked:" line, no billing.
    expect(run.stdout).not.toMatch(/Checked:|billed/);
    // Every file says so in its name, the annotated file in each reason, the summary in a field.
    expect((await readdir(dir)).filter((name) => name.startsWith('contacts.')).sort()).toEqual([
      'contacts.csv',
      'contacts.demo.annotated.csv',
      'contacts.demo.cleaned.csv',
      'contacts.demo.summary.json',
    ]);
    const [header, ...annotated] = parse(await readFile(join(dir, 'contacts.demo.annotated.csv'), 'utf8'));
    const [result, reason, text] = ['sift_result', 'sift_reason', 'sift_reason_text'].map((name) =>
      header!.indexOf(name),
    );
    expect(annotated.length).toBeGreaterThan(5);
    for (const row of annotated) {
      if (['bad_syntax', 'no_address'].includes(row[result!]!)) expect(row[reason!]).not.toMatch(/^demo/);
      else {
        expect(row[reason!]).toMatch(/^demo(:|$)/);
        // Its sentence never claims a mail server answered.
        expect(row[text!]).toBe('Demo verdict: no mail server was asked.');
      }
    }
    // The cleaned list is re-importable as it was: its first line is the header (after the BOM), not a label.
    const cleanedHead = (await readFile(join(dir, 'contacts.demo.cleaned.csv'), 'utf8')).split('\r\n')[0];
    expect(cleanedHead!.replace(/^\uFEFF/, '')).toBe('Name,Email,Notes');
    const summary = JSON.parse(await readFile(join(dir, 'contacts.demo.summary.json'), 'utf8'));
    expect(summary).toMatchObject({ demo: true, note: demoVerdictsNote });
    const verify = await runSiftHere(['verify', 'valid.someone@example.com'], { SIFT_DATA_DIR: data });
    // One address on a sandbox key: its line and its JSON say it is a demo verdict.
    expect(verify).toMatchObject({ code: 0, stdout: 'valid.someone@example.com: valid (demo: accepted_email)\n' });
    expect(verify.stderr).toContain(demoVerdictsNote);
    const typo = await runSiftHere(['verify', 'ann@gamil.com', '--json'], { SIFT_DATA_DIR: data });
    expect(JSON.parse(typo.stdout)).toMatchObject({ email: 'ann@gamil.com', suggestion: 'ann@gmail.com', demo: true });
  });

  it('writes a report with --report that says demo wherever the app would, and agrees with the summary', async () => {
    const { dir, inputPath, data } = await workspace();
    const run = await runSiftHere(['clean', inputPath, '--report'], { SIFT_DATA_DIR: data });
    expect(run.code, run.stderr).toBe(0);
    const path = join(dir, 'contacts.demo.report.html');
    expect(run.stdout).toContain(`Report:     ${path}`);
    const html = await readFile(path, 'utf8');
    const summary = JSON.parse(await readFile(join(dir, 'contacts.demo.summary.json'), 'utf8'));
    // Demo in the title, the "how it was checked" line, the verdicts' heading and the footer.
    expect(html).toContain('<title>Demo report: contacts.csv</title>');
    expect(html).toContain(`<strong>Demo.</strong> ${demoVerdictsNote}`);
    expect(html).toContain('<h2>Verdicts (demo)</h2>');
    expect(html).toContain('Demo verdicts: no mail server was asked.');
    expect(html).not.toMatch(/Checked live|verification service at/);
    // What to do says what a demo can: never that mail servers accepted anything.
    expect(html).toContain('<strong>These are demo verdicts:</strong>');
    expect(html).not.toContain('their mail servers accept them.');
    // Its numbers are the summary's, and nothing in it is fetched from outside the file.
    expect(html).toContain(`${summary.rows} rows · ${summary.to_check} addresses checked`);
    expect(html).toContain(`<th scope="row">Valid</th><td>${summary.valid}</td>`);
    expect(html).toContain('Credits spent (valid, invalid and catch-all verdicts)</th><td>0 (a demo is free)</td>');
    expect(html).not.toMatch(/<script|<link|src="http|url\(/);
  });

  it('gives an address that starts like a formula its verdict, guarded in the annotated copy only', async () => {
    const { dir, data } = await workspace();
    const path = join(dir, 'signs.csv');
    await writeFile(path, 'email\n=valid.eq@example.com\n-valid.dash@example.com\nvalid.plain@example.com\n');
    expect((await runSiftHere(['clean', path], { SIFT_DATA_DIR: data })).code).toBe(0);
    const annotated = parse(await readFile(join(dir, 'signs.demo.annotated.csv'), 'utf8'));
    expect(annotated.slice(1).map((row) => [row[0], row[1]])).toEqual([
      ["'=valid.eq@example.com", 'valid'],
      ["'-valid.dash@example.com", 'valid'],
      ['valid.plain@example.com', 'valid'],
    ]);
    const cleaned = parse(await readFile(join(dir, 'signs.demo.cleaned.csv'), 'utf8'));
    expect(cleaned.slice(1).map((row) => row[0])).toEqual([
      '=valid.eq@example.com',
      '-valid.dash@example.com',
      'valid.plain@example.com',
    ]);
  });
});
