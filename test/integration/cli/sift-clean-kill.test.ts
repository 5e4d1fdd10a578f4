// `sift clean` on a 100k-row list (200k in `npm run test:soak`) is killed (SIGKILL) while importing, while
// creating batches and while reading results; `--resume` then finishes with outputs identical to an
// uninterrupted run's, and the service saw each address once and billed it once.
import { copyFile, mkdir, mkdtemp, open, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultJobSettings } from '../../../electron/core/jobs/job-settings.ts';
import { openServiceStore } from '../../../electron/core/service/verification-service.ts';
import { startChildService, type ChildService } from '../../support/child-service.ts';
import { runSift } from '../../support/run-sift.ts';
import { waitFor } from '../../support/service-harness.ts';

/** The list's rows: enough for every kill point below; the soak's list is twice as long (SIFT_SOAK_KILL_ROWS). */
const rows = Number(process.env.SIFT_SOAK_KILL_ROWS ?? 100_000);
/** Kills at random moments: one when run alone, twenty in `npm run test:soak` (which sets SIFT_SOAK_KILLS). */
const randomKills = Number(process.env.SIFT_SOAK_KILLS ?? 1);
/** Enough for every run here: two cleans, a Ctrl-C, and every killed and resumed one. */
const credits = 10_000_000;
let root: string;
let service: ChildService;
let serviceDir: string;
let apiKey: string;

async function writeBigList(path: string) {
  const file = await open(path, 'w');
  await file.write('id,email,first_name,note\n');
  for (let start = 0; start < rows; start += 10_000) {
    const lines: string[] = [];
    for (let i = start; i < start + 10_000; i += 1) {
      // Many mail hosts; every 50th row repeats an earlier address; every 97th is malformed.
      const email =
        i % 97 === 0
          ? `broken${i}@@host${i % 500}.example`
          : i % 50 === 0 && i > 0
            ? `USER${i - 1}@HOST${(i - 1) % 500}.example`
            : `user${i}@host${i % 500}.example`;
      lines.push(`${i},${email},Name ${i},${i % 13 === 0 ? '=cmd|x' : 'ok'}`);
    }
    await file.write(`${lines.join('\n')}\n`);
  }
  await file.close();
}

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'sift-kill-'));
  serviceDir = join(root, 'service');
  const store = await openServiceStore({ dataDir: serviceDir });
  const created = await store.dashboard.createKey('live', 'kill test');
  // Polling and the ~45 uploads of this file's runs are not what is under test here.
  await store.dashboard.setKeyRateLimits(created.record.id, {
    batchStatus: { limit: 100_000, windowSeconds: 60 },
    uploadFile: { limit: 1000, windowSeconds: 60 },
  });
  await store.dashboard.topUp(credits);
  await store.db.close();
  apiKey = created.key;
  service = await startChildService({ dataDir: serviceDir, probesPerSecondPerHost: 2000, probesPerRound: 2000 });
  await mkdir(join(root, 'killed'));
  await mkdir(join(root, 'reference'));
  await mkdir(join(root, 'interrupted'));
  await writeBigList(join(root, 'killed', 'big.csv'));
  await copyFile(join(root, 'killed', 'big.csv'), join(root, 'reference', 'big-reference.csv'));
  await copyFile(join(root, 'killed', 'big.csv'), join(root, 'interrupted', 'big-ctrl-c.csv'));
}, 60_000);

afterAll(async () => {
  await service?.kill();
  // Its lists and job files take a few hundred MB per run: not left behind for every npm test.
  if (root) await rm(root, { recursive: true, force: true });
});

/** Where the newest job stands, read from its files as they are on disk (read-only, as a bystander would). */
function jobState(dataDir: string) {
  const none = { phase: undefined, imported: 0, batches: 0, checked: 0 };
  try {
    const catalog = new DatabaseSync(join(dataDir, 'jobs.sqlite'), { readOnly: true });
    let job: { id: string; phase: string; rows_total: number; checked: number } | undefined;
    try {
      job = catalog
        .prepare('SELECT id, phase, rows_total, checked FROM jobs ORDER BY created_at DESC LIMIT 1')
        .get() as typeof job | undefined;
    } finally {
      catalog.close();
    }
    if (!job) return none;
    const list = new DatabaseSync(join(dataDir, 'jobs', `${job.id}.sqlite`), { readOnly: true });
    try {
      const batches = (list.prepare('SELECT COUNT(batch_id) AS n FROM parts').get() as { n: number }).n;
      return { phase: job.phase, imported: job.rows_total, batches, checked: job.checked };
    } finally {
      list.close();
    }
  } catch {
    return none;
  }
}

const env = (dataDir: string) => ({ SIFT_API_KEY: apiKey, SIFT_DATA_DIR: dataDir });

async function runUntilThenKill(
  args: string[],
  dataDir: string,
  until: (state: ReturnType<typeof jobState>) => boolean,
) {
  const run = runSift(args, env(dataDir), 180_000);
  await waitFor(() => until(jobState(dataDir)) || run.child.exitCode !== null, 120_000, 20);
  if (run.child.exitCode !== null) {
    const ended = await run;
    throw new Error(`sift ended (${ended.code}) before it could be killed: ${ended.stderr}`);
  }
  run.child.kill('SIGKILL');
  const result = await run;
  expect(result.signal).toBe('SIGKILL');
  return jobState(dataDir);
}

/** How long an uninterrupted run of the big list took here, so kills can land anywhere within one. */
let referenceSeconds = 0;

describe('sift clean, killed and resumed', () => {
  it('ends with the same outputs as an uninterrupted run, each address submitted and billed once', async () => {
    const killedData = join(root, 'killed-data');
    const input = join(root, 'killed', 'big.csv');
    const args = ['clean', input, '--base-url', service.baseUrl];

    const whileImporting = await runUntilThenKill(args, killedData, (state) => state.imported > 20_000);
    expect(whileImporting.phase).toBe('importing');
    const whileSubmitting = await runUntilThenKill([...args, '--resume'], killedData, (state) => state.batches >= 1);
    expect(whileSubmitting.checked).toBeLessThan(rows * 0.95);
    const whileReading = await runUntilThenKill([...args, '--resume'], killedData, (state) => state.checked > 40_000);
    expect(whileReading.phase).toBe('reading');
    const finished = await runSift([...args, '--resume'], env(killedData), 180_000);
    expect(finished.stderr).toBe('');
    expect(finished.code).toBe(0);

    const startedAt = performance.now();
    const reference = await runSift(
      ['clean', join(root, 'reference', 'big-reference.csv'), '--base-url', service.baseUrl],
      env(join(root, 'reference-data')),
      180_000,
    );
    expect(reference.code).toBe(0);
    referenceSeconds = (performance.now() - startedAt) / 1000;
    for (const kind of ['cleaned.csv', 'annotated.csv', 'summary.json']) {
      const resumed = await readFile(join(root, 'killed', `big.${kind}`));
      const uninterrupted = await readFile(join(root, 'reference', `big-reference.${kind}`));
      expect(resumed.equals(uninterrupted), kind).toBe(true);
    }
    const summary = JSON.parse(await readFile(join(root, 'killed', 'big.summary.json'), 'utf8'));
    const brokenRows = Math.ceil(rows / 97);
    expect(summary.rows).toBe(rows);
    expect(summary.bad_syntax).toBe(brokenRows);
    expect(summary.no_address + summary.bad_syntax + summary.duplicates + summary.to_check).toBe(rows);

    // At the service: one set of batches for the killed job, every address in it once, billed once.
    const store = await openServiceStore({ dataDir: serviceDir });
    try {
      const batches = (await store.db.all(
        "SELECT id, submitted, unique_count, c_billed, status FROM batches WHERE name LIKE 'big.csv%'",
      )) as {
        id: string;
        unique_count: number;
        c_billed: number;
        status: string;
      }[];
      // One batch per part of the list, each made once however often the run was killed.
      expect(batches.length).toBe(Math.ceil(summary.to_check / defaultJobSettings.addressesPerBatch));
      expect(batches.every((batch) => batch.status === 'complete')).toBe(true);
      const sent = batches.reduce((sum, batch) => sum + batch.unique_count, 0);
      expect(sent).toBe(summary.to_check);
      // Only definitive verdicts are billed; `unknown` never is.
      const definitive = summary.valid + summary.invalid + summary.catch_all;
      expect(summary.unknown).toBeGreaterThan(0);
      expect(batches.reduce((sum, batch) => sum + batch.c_billed, 0)).toBe(definitive);
      const repeated = await store.db.all(
        `SELECT lower(email) AS address FROM batch_rows WHERE id >> 32 IN (SELECT row_key FROM batches WHERE id IN (${batches.map(() => '?').join(',')})) GROUP BY address HAVING COUNT(*) > 1 LIMIT 1`,
        [...batches.map((batch) => batch.id)],
      );
      expect(repeated).toEqual([]);
      // Two jobs (killed and reference) each paid for their definitive verdicts exactly once.
      const account = await store.dashboard.account();
      expect(100 - account.freeRemaining + (credits - account.balance)).toBe(2 * definitive);
    } finally {
      await store.db.close();
    }

    // Ctrl-C (SIGINT) stops at a safe point, says how to go on, and --resume finishes the same way.
    const interruptedData = join(root, 'interrupted-data');
    const interruptedInput = join(root, 'interrupted', 'big-ctrl-c.csv');
    const run = runSift(['clean', interruptedInput, '--base-url', service.baseUrl], env(interruptedData), 180_000);
    await waitFor(() => jobState(interruptedData).checked > 20_000 || run.child.exitCode !== null, 120_000, 20);
    run.child.kill('SIGINT');
    const stopped = await run;
    expect(stopped.code).toBe(130);
    expect(stopped.stderr).toContain('--resume');
    const resumed = await runSift(
      ['clean', interruptedInput, '--base-url', service.baseUrl, '--resume'],
      env(interruptedData),
      180_000,
    );
    expect(resumed.code).toBe(0);
    expect(
      (await readFile(join(root, 'interrupted', 'big-ctrl-c.annotated.csv'))).equals(
        await readFile(join(root, 'reference', 'big-reference.annotated.csv')),
      ),
    ).toBe(true);
  }, 600_000);

  it(`ends the same after ${randomKills} kills at random moments, none of them billed twice`, async () => {
    expect(referenceSeconds).toBeGreaterThan(0);
    const spent = async () => {
      const store = await openServiceStore({ dataDir: serviceDir });
      try {
        const account = await store.dashboard.account();
        return 100 - account.freeRemaining + (credits - account.balance);
      } finally {
        await store.db.close();
      }
    };
    const spentBefore = await spent();
    const summary = JSON.parse(await readFile(join(root, 'reference', 'big-reference.summary.json'), 'utf8'));
    const billable: number = summary.valid + summary.invalid + summary.catch_all;
    let seed = 7;
    const random = () => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 2 ** 32;
    const trials = randomKills;
    for (let trial = 1; trial <= trials; trial += 1) {
      const dir = join(root, 'trials', String(trial));
      await mkdir(dir, { recursive: true });
      await copyFile(join(root, 'killed', 'big.csv'), join(dir, 'big.csv'));
      const args = ['clean', join(dir, 'big.csv'), '--base-url', service.baseUrl];
      const run = runSift(args, env(join(dir, 'data')), 180_000);
      // Anywhere from the first instant to near the end of a whole run.
      await new Promise((resolve) => setTimeout(resolve, random() * referenceSeconds * 900));
      run.child.kill('SIGKILL');
      await run;
      const resumed = await runSift([...args, '--resume'], env(join(dir, 'data')), 180_000);
      expect(resumed.code, `trial ${trial}: ${resumed.stderr}`).toBe(0);
      for (const kind of ['cleaned.csv', 'annotated.csv', 'summary.json']) {
        const same = (await readFile(join(dir, `big.${kind}`))).equals(
          await readFile(join(root, 'reference', `big-reference.${kind}`)),
        );
        expect(same, `trial ${trial}: ${kind}`).toBe(true);
      }
    }
    expect((await spent()) - spentBefore).toBe(trials * billable);
  }, 900_000);
});
