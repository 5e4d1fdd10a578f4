// `sift clean` against a service that follows the spec but none of Sift's own guesses (test/support/
// spec-peer.ts): its lists go as POST /batches in parts it accepts, its results come through the cursor
// loop, and the outputs are those of the same list cleaned on Sift's own service. On Sift's own service
// the shortcuts are still taken; a shortcut that answers "not here" falls back in the same run, at no cost.
import { copyFile, mkdir, mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import Papa from 'papaparse';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { VerificationService } from '../../../../electron/core/service/verification-service.ts';
import { writeMarketingList } from '../../../bench/marketing-list.ts';
import { startFaultProxy, type SeenRequest } from '../../../support/fault-proxy.ts';
import { runSift } from '../../../support/run-sift.ts';
import { apiClient, startTestService } from '../../../support/service-harness.ts';
import { startSpecPeer } from '../../../support/spec-peer.ts';

const rows = 3000;
const sandboxKey = 'svc_test_peer0123456789abcdef';
let root: string;
let service: VerificationService;
let ownKey: string;

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'sift-any-service-'));
  for (const folder of ['own', 'peer', 'whole', 'shortcuts', 'fallback', 'settle']) await mkdir(join(root, folder));
  await writeMarketingList(join(root, 'own', 'list.csv'), rows);
  for (const folder of ['peer', 'whole', 'shortcuts', 'fallback', 'settle'])
    await copyFile(join(root, 'own', 'list.csv'), join(root, folder, 'list.csv'));
  service = await startTestService();
  const created = await service.dashboard.createKey('sandbox', 'any service');
  await service.dashboard.setKeyRateLimits(created.record.id, {
    batchStatus: { limit: 100_000, windowSeconds: 60 },
    createBatch: { limit: 1000, windowSeconds: 60 },
  });
  ownKey = created.key;
}, 60_000);
afterAll(() => service.close());

const clean = (folder: string, env: Record<string, string>, extra: string[] = []) =>
  runSift(['clean', join(root, folder, 'list.csv'), '--per-status', ...extra], {
    SIFT_DATA_DIR: join(root, `${folder}-data`),
    ...env,
  });

const outputs = [
  'list.demo.cleaned.csv',
  'list.demo.summary.json',
  'list.demo.valid.csv',
  'list.demo.invalid.csv',
  'list.demo.unknown.csv',
];

/**
 * The annotated copy without `sift_reason`, its sentence and what is scored from it: a service that follows
 * the spec sends no reasons.
 */
async function annotatedWithoutReasons(folder: string): Promise<string> {
  const rows = Papa.parse<string[]>(await readFile(join(root, folder, 'list.demo.annotated.csv'), 'utf8')).data;
  const drop = ['sift_reason', 'sift_reason_text', 'sift_score', 'sift_score_reasons'].map((name) =>
    rows[0]!.indexOf(name),
  );
  return rows.map((cells) => cells.filter((_, i) => !drop.includes(i)).join(',')).join('\n');
}

async function expectSameOutputs(folder: string) {
  for (const file of outputs) {
    const same = (await readFile(join(root, folder, file))).equals(await readFile(join(root, 'own', file)));
    expect(same, `${folder}/${file}`).toBe(true);
  }
  expect(await annotatedWithoutReasons(folder)).toBe(await annotatedWithoutReasons('own'));
}

const routeOf = (request: SeenRequest) =>
  `${request.method} ${request.url
    .split('?')[0]!
    .replace(/bat_[0-9a-f]+/, '{id}')
    .replace(/^\/v1/, '')}`;
const count = (seen: readonly SeenRequest[], route: string) => seen.filter((r) => routeOf(r) === route).length;

describe('cleaning on any service that follows the spec', () => {
  it('sends a list as batches the service accepts and reads it page by page, with the outputs of Sift’s own service', async () => {
    expect((await clean('own', {})).code).toBe(0);
    const summary = JSON.parse(await readFile(join(root, 'own', 'list.demo.summary.json'), 'utf8'));
    // Batches of at most 1,500: the first part (the whole list) is refused and halved until it fits.
    const peer = await startSpecPeer({
      apiKey: sandboxKey,
      maxBatch: 1500,
      checksPerSecond: 4000,
      throttleBatchCalls: [4],
      throttleResultCalls: [3],
    });
    try {
      const run = await clean('peer', { SIFT_API_KEY: sandboxKey }, ['--base-url', peer.baseUrl]);
      expect(run.stderr).not.toContain(sandboxKey);
      expect(run.code, run.stderr).toBe(0);
      // Every address to check went in exactly one batch, none over the size, none by a shortcut.
      expect(peer.submissions.size).toBe(summary.to_check);
      expect([...peer.submissions.values()].every((times) => times === 1)).toBe(true);
      expect(Math.max(...peer.batches.map((batch) => batch.emails.length))).toBeLessThanOrEqual(1500);
      expect(peer.calls.get('POST /files')).toBeUndefined();
      expect(peer.calls.get('GET /batches/{id}/results.csv')).toBeUndefined();
      expect(peer.calls.get('GET /batches/{id}/results')).toBeGreaterThan(peer.batches.length);
      await expectSameOutputs('peer');

      // The size it learned is kept for that service: the next list goes in parts that fit at once.
      const callsBefore = peer.calls.get('POST /batches')!;
      const batchesBefore = peer.batches.length;
      await copyFile(join(root, 'own', 'list.csv'), join(root, 'peer', 'again.csv'));
      // (--no-cache: the verdicts of the first list would stand for this one's.)
      const again = await runSift(
        ['clean', join(root, 'peer', 'again.csv'), '--base-url', peer.baseUrl, '--no-cache'],
        {
          SIFT_DATA_DIR: join(root, 'peer-data'),
          SIFT_API_KEY: sandboxKey,
        },
      );
      expect(again.code, again.stderr).toBe(0);
      expect(peer.batches.length - batchesBefore).toBeGreaterThan(1);
      expect(peer.calls.get('POST /batches')! - callsBefore).toBe(peer.batches.length - batchesBefore);
    } finally {
      await peer.close();
    }
  }, 120_000);

  it('takes a creation answered with the id alone as the spec shows it, reading the rest from the status call', async () => {
    // The peer above answered each creation with `{ id }` only; one that answers with the whole batch
    // status gives byte-identical files, with no status call needed to learn the rest.
    const whole = await startSpecPeer({
      apiKey: sandboxKey,
      maxBatch: 1500,
      checksPerSecond: 4000,
      creationAnswer: 'batch',
    });
    try {
      const run = await clean('whole', { SIFT_API_KEY: sandboxKey }, ['--base-url', whole.baseUrl]);
      expect(run.code, run.stderr).toBe(0);
      await expectSameOutputs('whole');
      for (const file of outputs) {
        expect((await readFile(join(root, 'whole', file))).equals(await readFile(join(root, 'peer', file))), file).toBe(
          true,
        );
      }
    } finally {
      await whole.close();
    }
  }, 120_000);

  it('ends a list read to its end whose end status a crash lost (as an older Sift could) as done, sending nothing again', async () => {
    const peer = await startSpecPeer({ apiKey: sandboxKey, maxBatch: 1500, checksPerSecond: 4000 });
    try {
      const env = { SIFT_API_KEY: sandboxKey };
      expect((await clean('settle', env, ['--base-url', peer.baseUrl])).code).toBe(0);
      // What such a crash left: every part read to its end, none with the status its batch ended on.
      const dataDir = join(root, 'settle-data');
      const catalog = new DatabaseSync(join(dataDir, 'jobs.sqlite'));
      const { id } = catalog.prepare("UPDATE jobs SET phase = 'reading' RETURNING id").get() as { id: string };
      catalog.close();
      const list = new DatabaseSync(join(dataDir, 'jobs', `${id}.sqlite`));
      list.exec("UPDATE parts SET status = 'running' WHERE batch_id IS NOT NULL");
      list.close();
      const batchCalls = peer.calls.get('POST /batches');

      const resumed = await clean('settle', env, ['--base-url', peer.baseUrl, '--resume']);
      expect(resumed.code, resumed.stderr).toBe(0);
      expect(resumed.stderr).not.toContain('canceled');
      expect(peer.calls.get('POST /batches')).toBe(batchCalls);
      await expectSameOutputs('settle');
    } finally {
      await peer.close();
    }
  }, 60_000);

  it('takes the upload and download shortcuts Sift’s own service offers', async () => {
    const proxy = await startFaultProxy(service.baseUrl, () => ({ kind: 'forward' }));
    try {
      const run = await clean('shortcuts', { SIFT_API_KEY: ownKey }, ['--base-url', proxy.baseUrl]);
      expect(run.code, run.stderr).toBe(0);
      expect(count(proxy.seen, 'POST /files')).toBe(1);
      expect(count(proxy.seen, 'GET /batches/{id}/results.csv')).toBe(1);
      expect(count(proxy.seen, 'POST /batches')).toBe(0);
      expect(count(proxy.seen, 'GET /batches/{id}/results')).toBe(0);
    } finally {
      await proxy.close();
    }
    await expectSameOutputs('shortcuts');
  }, 60_000);

  it('falls back to the spec’s path in the same run when a shortcut is not there, sending each address once', async () => {
    const batchIds: string[] = [];
    const proxy = await startFaultProxy(service.baseUrl, (request) => {
      const route = routeOf(request);
      if (route === 'POST /files')
        return { kind: 'respond', status: 404, body: '{"error":{"type":"x","code":"no_route"}}' };
      if (route.endsWith('results.csv')) return { kind: 'respond', status: 501, body: '' };
      return {
        kind: 'rewrite',
        rewrite(answer) {
          if (route === 'POST /batches' && answer.status === 201) batchIds.push(JSON.parse(answer.body.toString()).id);
          return answer;
        },
      };
    });
    try {
      const run = await clean('fallback', { SIFT_API_KEY: ownKey }, ['--base-url', proxy.baseUrl]);
      expect(run.code, run.stderr).toBe(0);
      expect(count(proxy.seen, 'POST /files')).toBe(1);
      expect(count(proxy.seen, 'GET /batches/{id}/results.csv')).toBe(1);
      expect(count(proxy.seen, 'GET /batches/{id}/results')).toBeGreaterThan(0);
    } finally {
      await proxy.close();
    }
    const summary = JSON.parse(await readFile(join(root, 'own', 'list.demo.summary.json'), 'utf8'));
    const api = apiClient(service, ownKey);
    let submitted = 0;
    for (const id of new Set(batchIds)) submitted += (await api('GET', `/batches/${id}`)).body.submitted;
    expect(submitted).toBe(summary.to_check);
    await expectSameOutputs('fallback');
  }, 60_000);
});
