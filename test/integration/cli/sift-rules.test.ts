// Rules per domain, from the terminal and the app on one data folder: `sift rules` sets each action
// (typed, or a file of domains), and `sift clean` sends none of the addresses a rule decides, bills none,
// writes the rule as their reason and source, and keeps or leaves them out as the rule says; the app's
// Rules calls show the same rules with the rows each decided, and a list the app reads follows them.
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Papa from 'papaparse';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JobOverview, RulesSet, RulesView } from '../../../electron/common/contract.ts';
import { createAppRuntime } from '../../../electron/core/app/app-runtime.ts';
import type { VerificationService } from '../../../electron/core/service/verification-service.ts';
import { appCaller } from '../../support/app-call.ts';
import { runSiftHere } from '../../support/run-sift-here.ts';
import { startTestService } from '../../support/service-harness.ts';

let service: VerificationService;
let key: string;

beforeAll(async () => {
  service = await startTestService({ probesPerSecondPerHost: 10_000 });
  const created = await service.dashboard.createKey('live', 'rules');
  await service.dashboard.topUp(1_000);
  key = created.key;
});
afterAll(() => service.close());

const spent = async () => {
  const account = await service.dashboard.account();
  return 100 - account.freeRemaining + (1_000 - account.balance);
};
const rows = (text: string) =>
  Papa.parse<Record<string, string>>(text.replace(/^\uFEFF/, ''), { header: true, skipEmptyLines: true }).data;

const list = `name,email
Ann,valid.ann@firm.example
Ben,invalid.ben@firm.example
Ceo,valid.ceo@mycorp.example
Sam,invalid.sam@sales.mycorp.example
Sam again,invalid.sam@sales.mycorp.example
Tom,valid.tom@trap.example
Pat,valid.pat@partner.example
Zed,valid.zed@catchy.example
`;

describe('rules per domain', () => {
  it('decides addresses before anything is sent, in the CLI and the app alike', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'sift-rules-'));
    const dataDir = join(dir, 'data');
    const env = { SIFT_API_KEY: key, SIFT_DATA_DIR: dataDir };
    const input = join(dir, 'people.csv');
    await writeFile(input, list);
    await writeFile(join(dir, 'partners.txt'), 'Domain\npartner.example\nann@firm.example\n');

    expect((await runSiftHere(['rules', 'keep', 'MyCorp.example'], env)).stdout).toContain('1 added, 0 changed');
    expect((await runSiftHere(['rules', 'leave-out', '@trap.example'], env)).code).toBe(0);
    expect((await runSiftHere(['rules', 'catch-all', '*.catchy.example'], env)).code).toBe(0);
    const fromFile = await runSiftHere(['rules', 'never-check', join(dir, 'partners.txt')], env);
    expect(fromFile.code).toBe(2);
    expect(fromFile.stdout).toContain('partners.txt: 1 added');
    expect(fromFile.stderr).toContain('"ann@firm.example": an address: a rule is for a whole domain');
    expect((await runSiftHere(['rules', 'sometimes', 'x.example'], env)).code).toBe(2);

    const clean = await runSiftHere(['clean', input, '--base-url', service.baseUrl, '--keep', 'valid,catch_all'], env);
    expect(clean.code, clean.stderr).toBe(0);
    expect(clean.stdout + clean.stderr).toContain('5 decided by your rules');
    // Only Ann and Ben were sent and paid for.
    expect(await spent()).toBe(2);
    const annotated = rows(await readFile(join(dir, 'people.annotated.csv'), 'utf8'));
    const decided = Object.fromEntries(
      annotated.map((row) => [row.name, [row.sift_result, row.sift_reason, row.sift_source, row.sift_billed]]),
    );
    expect(decided).toEqual({
      Ann: ['valid', 'accepted_email', 'checked', 'true'],
      Ben: ['invalid', expect.any(String), 'checked', 'true'],
      Ceo: ['ruled', 'rule_keep', 'rule', 'false'],
      Sam: ['ruled', 'rule_keep', 'rule', 'false'],
      'Sam again': ['ruled', 'rule_keep', 'rule', 'false'],
      Tom: ['ruled', 'rule_leave_out', 'rule', 'false'],
      Pat: ['ruled', 'rule_never_check', 'rule', 'false'],
      Zed: ['catch_all', 'rule_catch_all', 'rule', 'false'],
    });
    expect(annotated.find((row) => row.name === 'Tom')!.sift_reason_text).toBe(
      'Your rule for its domain: always leave out. Never sent or billed.',
    );
    // Kept: the valid one, both of mycorp's (a rule keeps whatever it would have been), the partner's (not
    // checked, no flag left out), the catch-all.
    const cleaned = rows(await readFile(join(dir, 'people.cleaned.csv'), 'utf8')).map((row) => row.name);
    expect(cleaned).toEqual(['Ann', 'Ceo', 'Sam', 'Pat', 'Zed']);
    const summary = JSON.parse(await readFile(join(dir, 'people.summary.json'), 'utf8'));
    expect(summary).toMatchObject({ rows: 8, duplicates: 1, ruled: 5, to_check: 2, billed: 2 });

    // The app on the same folder sees the same rules, with the rows each decided in that list.
    const runtime = await createAppRuntime({ dataDir, appVersion: '1.0.0' });
    const call = appCaller('ipc');
    try {
      const view = await call<RulesView>(runtime, 'rules:list', {});
      expect(view.lastList?.list).toBe('people.csv');
      expect(view.rules.map((rule) => [rule.domain, rule.action, rule.lastListRows, rule.source])).toEqual([
        ['catchy.example', 'catch_all', 1, 'by hand'],
        ['mycorp.example', 'keep', 3, 'by hand'],
        ['partner.example', 'never_check', 1, 'partners.txt'],
        ['trap.example', 'leave_out', 1, 'by hand'],
      ]);
      // A rule set in the app: firm.example is never checked now, and a list the app reads sends nothing.
      const set = await call<RulesSet>(runtime, 'rules:set', {
        domains: ['firm.example', 'not a domain'],
        action: 'never_check',
      });
      expect(set).toMatchObject({ added: 1, changed: 0, refused: 1 });
      const job = await call<JobOverview>(runtime, 'jobs:create', { file: { kind: 'path', path: input } });
      expect(job.precheck).toMatchObject({ toCheck: 0, ruled: 7, duplicates: 1 });
      expect(job.cost.checks).toBe(0);
      const refused = await runtime.dispatch('rules:set', { domains: [], action: 'keep' }, { transport: 'ipc' });
      expect(refused).toMatchObject({ ok: false });
    } finally {
      await runtime.close();
    }
    const listed = JSON.parse((await runSiftHere(['rules', 'list', '--json'], env)).stdout);
    expect(listed.rules.find((rule: { domain: string }) => rule.domain === 'firm.example')).toMatchObject({
      action: 'never_check',
      lastListRows: 2,
    });
    expect((await runSiftHere(['rules', 'remove', 'firm.example', 'none.example'], env)).stdout).toContain(
      '1 removed; 1 had no rule.',
    );
    expect(await spent()).toBe(2);
  }, 120_000);
});
