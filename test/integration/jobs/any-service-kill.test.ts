// `sift clean` against a service that follows only the spec (POST /batches, the cursor loop), killed with
// SIGKILL at random moments and resumed: the outputs are byte for byte those of an uninterrupted run, no
// address went in two batches, and running the finished list again sends nothing.
import { copyFile, mkdir, mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeMarketingList } from '../../bench/marketing-list.ts';
import { runSift } from '../../support/run-sift.ts';
import { seededRandom } from '../../support/seeded-random.ts';
import { waitFor } from '../../support/service-harness.ts';
import { startSpecPeer, type SpecPeer } from '../../support/spec-peer.ts';

const rows = 30_000;
/** Kills in `npm test`; `SIFT_SOAK_KILLS` asks for more. */
const kills = Number(process.env.SIFT_SOAK_KILLS ?? 5);
const liveKey = 'svc_live_peerkill0123456789abcdef';
const peerOptions = { apiKey: liveKey, maxBatch: 4000, checksPerSecond: 3000 };
let root: string;
let reference: SpecPeer;
let killed: SpecPeer;

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
});

const clean = (folder: string, peer: SpecPeer, extra: string[] = []) =>
  runSift(['clean', join(root, folder, 'list.csv'), '--base-url', peer.baseUrl, ...extra], {
    SIFT_API_KEY: liveKey,
    SIFT_DATA_DIR: join(root, `${folder}-data`),
  });

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
  it(`ends with the outputs of an uninterrupted run after ${kills} kills, each address in one batch`, async () => {
    const startedAt = performance.now();
    const uninterrupted = await clean('reference', reference);
    expect(uninterrupted.code, uninterrupted.stderr).toBe(0);
    const referenceMs = performance.now() - startedAt;

    const random = seededRandom(26);
    const data = join(root, 'killed-data');
    const phases: string[] = [];
    // The first kill lands after the service made a part's batch and before its answer came back; the
    // second while pages are read; the rest anywhere.
    const moments = [
      () => waitFor(() => killed.held === 1, 60_000, 5),
      () => waitFor(() => jobState(data).phase === 'reading', 60_000, 5),
    ];
    for (let kill = 0; kill < kills; kill += 1) {
      const run = clean('killed', killed, kill === 0 ? [] : ['--resume']);
      const moment =
        moments[kill] ?? (() => new Promise<unknown>((resolve) => setTimeout(resolve, 300 + random() * referenceMs)));
      await Promise.race([moment(), run]);
      if (run.child.exitCode !== null) break;
      run.child.kill('SIGKILL');
      const ended = await run;
      if (ended.signal === 'SIGKILL') phases.push(jobState(data).phase ?? 'none');
      else expect(ended.code, ended.stderr).toBe(0);
    }
    expect(phases.slice(0, 2)).toEqual(['submitting', 'reading']);
    const finished = await clean('killed', killed, ['--resume']);
    expect(finished.code, finished.stderr).toBe(0);

    for (const file of ['list.cleaned.csv', 'list.annotated.csv', 'list.summary.json']) {
      const same = (await readFile(join(root, 'killed', file))).equals(await readFile(join(root, 'reference', file)));
      expect(same, file).toBe(true);
    }
    const summary = JSON.parse(await readFile(join(root, 'killed', 'list.summary.json'), 'utf8'));
    expect(killed.submissions.size).toBe(summary.to_check);
    expect([...killed.submissions.entries()].filter(([, times]) => times !== 1)).toEqual([]);
    const inBatches = killed.batches.reduce((sum, batch) => sum + batch.emails.length, 0);
    expect(inBatches).toBe(summary.to_check);

    // The finished list run again is written again and sends nothing.
    const batchCalls = killed.calls.get('POST /batches');
    const again = await clean('killed', killed);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).toContain('nothing is sent');
    expect(killed.calls.get('POST /batches')).toBe(batchCalls);
  }, 240_000);
});
