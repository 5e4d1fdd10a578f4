// `sift clean` against a service that follows only the spec (POST /batches, the cursor loop), killed with
// SIGKILL at random moments and resumed: the outputs are byte for byte those of an uninterrupted run, no
// address went in two batches, and running the finished list again sends nothing.
import { copyFile, mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeMarketingList } from '../../../bench/marketing-list.ts';
import { runSift } from '../../../support/run-sift.ts';
import { seededRandom } from '../../../support/seeded-random.ts';
import { waitFor } from '../../../support/service-harness.ts';
import { startSpecPeer, type SpecPeer } from '../../../support/spec-peer.ts';

const rows = 30_000;
/** Runs killed at a random moment and resumed: one when run alone, twenty in `npm run test:soak`. */
const trials = Number(process.env.SIFT_SOAK_KILLS ?? 1);
const liveKey = 'svc_live_peerkill0123456789abcdef';
const peerOptions = { apiKey: liveKey, maxBatch: 4000, checksPerSecond: 3000 };
let root: string;
let reference: SpecPeer;
let killed: SpecPeer;
/** How long an uninterrupted run took here, so kills can land anywhere within one. */
let referenceMs = 0;

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'sift-peer-kill-'));
  await mkdir(join(root, 'reference'));
  await mkdir(join(root, 'killed'));
  await writeMarketingList(join(root, 'reference', 'list.csv'), rows);
  await copyFile(join(root, 'reference', 'list.csv'), join(root, 'killed', 'list.csv'));
  reference = await startSpecPeer(peerOptions);
  // The second batch it makes is answered only after the first kill: that run never sees its id.
  killed = await startSpecPeer({ ...peerOptions, holdBatchAnswers: [2] });
}, 60_000);

afterAll(async () => {
  await reference?.close();
  await killed?.close();
  if (root) await rm(root, { recursive: true, force: true });
});

const clean = (folder: string, peer: SpecPeer, extra: string[] = []) =>
  runSift(['clean', join(root, folder, 'list.csv'), '--base-url', peer.baseUrl, ...extra], {
    SIFT_API_KEY: liveKey,
    SIFT_DATA_DIR: join(root, `${folder}-data`),
  });

/** The killed run's outputs are the uninterrupted run's, byte for byte; each address went in one batch. */
async function expectAsUninterrupted(folder: string, peer: SpecPeer) {
  for (const file of ['list.cleaned.csv', 'list.annotated.csv', 'list.summary.json']) {
    const same = (await readFile(join(root, folder, file))).equals(await readFile(join(root, 'reference', file)));
    expect(same, `${folder}/${file}`).toBe(true);
  }
  const summary = JSON.parse(await readFile(join(root, folder, 'list.summary.json'), 'utf8'));
  expect(peer.submissions.size).toBe(summary.to_check);
  expect([...peer.submissions.entries()].filter(([, times]) => times !== 1)).toEqual([]);
  expect(peer.batches.reduce((sum, batch) => sum + batch.emails.length, 0)).toBe(summary.to_check);
}

/** The newest job's phase and how many of its parts have a batch, read as a bystander would. */
function jobState(dataDir: string): { phase?: string; sent: number } {
  try {
    const catalog = new DatabaseSync(join(dataDir, 'jobs.sqlite'), { readOnly: true });
    const job = catalog.prepare('SELECT id, phase FROM jobs ORDER BY created_at DESC LIMIT 1').get() as
      { id: string; phase: string } | undefined;
    catalog.close();
    if (!job) return { sent: 0 };
    const list = new DatabaseSync(join(dataDir, 'jobs', `${job.id}.sqlite`), { readOnly: true });
    const { sent } = list.prepare('SELECT COUNT(batch_id) AS sent FROM parts').get() as { sent: number };
    list.close();
    return { phase: job.phase, sent };
  } catch {
    return { sent: 0 };
  }
}

describe('sift clean on a spec-only service, killed and resumed', () => {
  it('ends with the outputs of an uninterrupted run after kills while sending and while reading', async () => {
    const startedAt = performance.now();
    const uninterrupted = await clean('reference', reference);
    expect(uninterrupted.code, uninterrupted.stderr).toBe(0);
    referenceMs = performance.now() - startedAt;

    const data = join(root, 'killed-data');
    // The first kill lands after the service made a part's batch and before its answer came back; the
    // second while pages are read.
    const moments = [
      () => waitFor(() => killed.held === 1, 60_000, 5),
      () => waitFor(() => jobState(data).phase === 'reading', 60_000, 5),
    ];
    const phases: string[] = [];
    for (const [kill, moment] of moments.entries()) {
      const run = clean('killed', killed, kill === 0 ? [] : ['--resume']);
      await Promise.race([moment(), run]);
      run.child.kill('SIGKILL');
      expect((await run).signal).toBe('SIGKILL');
      phases.push(jobState(data).phase ?? 'none');
    }
    expect(phases).toEqual(['submitting', 'reading']);
    const finished = await clean('killed', killed, ['--resume']);
    expect(finished.code, finished.stderr).toBe(0);
    await expectAsUninterrupted('killed', killed);

    // The finished list run again is written again and sends nothing.
    const batchCalls = killed.calls.get('POST /batches');
    const again = await clean('killed', killed);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).toContain('nothing is sent');
    expect(killed.calls.get('POST /batches')).toBe(batchCalls);
  }, 240_000);

  it(`ends the same after ${trials} runs killed at random moments`, async () => {
    expect(referenceMs).toBeGreaterThan(0);
    const random = seededRandom(26);
    for (let trial = 1; trial <= trials; trial += 1) {
      const folder = `trial-${trial}`;
      await mkdir(join(root, folder));
      await copyFile(join(root, 'reference', 'list.csv'), join(root, folder, 'list.csv'));
      const peer = await startSpecPeer(peerOptions);
      try {
        const run = clean(folder, peer);
        // Anywhere from the first instant to the end of a whole run.
        await Promise.race([new Promise((resolve) => setTimeout(resolve, random() * referenceMs)), run]);
        run.child.kill('SIGKILL');
        await run;
        const resumed = await clean(folder, peer, ['--resume']);
        expect(resumed.code, `trial ${trial}: ${resumed.stderr}`).toBe(0);
        await expectAsUninterrupted(folder, peer);
      } finally {
        await peer.close();
      }
    }
  }, 1_200_000);
});
