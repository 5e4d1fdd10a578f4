// One list's "what happened after the send", as its results screen shows it: a list checked live (the test
// service's scripted verdicts), then bounces read back from a file dated after the check; each address of the
// list counts once under the verdict the list gave it, and an address the list does not hold not at all.
import { rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openJobStore } from '../../../../electron/core/jobs/store/index.ts';
import { listOutcomes } from '../../../../electron/core/jobs/views/list-outcomes.ts';
import type { VerificationService } from '../../../../electron/core/service/verification-service.ts';
import { runSiftHere } from '../../../support/run-sift-here.ts';
import { startTestService, syncTestEnv } from '../../../support/service-harness.ts';

let service: VerificationService;
let env: Record<string, string>;
beforeAll(async () => {
  service = await startTestService();
  env = await syncTestEnv(service, 100, {});
});
afterAll(async () => {
  await service?.close();
  if (env?.SIFT_DATA_DIR) await rm(dirname(env.SIFT_DATA_DIR), { recursive: true, force: true });
});

describe("a list's outcomes", () => {
  it('counts each of its addresses once, under its own verdict, from bounces read after its check', async () => {
    const dir = dirname(env.SIFT_DATA_DIR!);
    const list = join(dir, 'march.csv');
    const addresses = ['valid.a', 'valid.b', 'valid.c', 'catchall.d', 'catchall.e'].map(
      (local) => `${local}@shop.example`,
    );
    await writeFile(list, `email\n${addresses.join('\n')}\n`);
    const clean = await runSiftHere(['clean', list, '--base-url', service.baseUrl, '--json'], env);
    expect(clean.code, clean.stderr).toBe(0);
    const store = openJobStore(env.SIFT_DATA_DIR!);
    const job = store.recentJobs(1)[0]!;
    expect(listOutcomes(store, job, env.SIFT_DATA_DIR!)).toEqual({
      checkedAt: job.updatedAt,
      sentence: '',
      byVerdict: [],
    });

    const later = new Date(job.updatedAt + 60_000).toISOString();
    const bounces = join(dir, 'bounces.csv');
    await writeFile(
      bounces,
      [
        'email,type,date',
        `valid.a@shop.example,hard,${later}`,
        `valid.a@shop.example,soft,${later}`,
        `catchall.d@shop.example,soft,${later}`,
        `not.in.list@shop.example,hard,${later}`,
        // Before the list was checked: not what happened after it.
        `valid.b@shop.example,hard,2020-01-01`,
      ].join('\n'),
    );
    expect((await runSiftHere(['outcomes', 'import', bounces], env)).code).toBe(0);
    expect(listOutcomes(store, job, env.SIFT_DATA_DIR!)).toEqual({
      checkedAt: job.updatedAt,
      sentence: 'Of 3 addresses Sift called valid, 1 bounced (33%); of 2 catch-all, 0 bounced (0%).',
      byVerdict: [
        { result: 'valid', checked: 3, sent: 0, hard: 1, soft: 0, refused: 0 },
        { result: 'catch_all', checked: 2, sent: 0, hard: 0, soft: 1, refused: 0 },
      ],
    });
    store.close();
  }, 60_000);
});
