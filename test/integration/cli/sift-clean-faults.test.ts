// `sift clean` of 30,000 rows through a network that fails: one request in ten answered 5xx, connections
// cut after the service answered, answers cut off mid-body, requests held up. The outputs are byte for byte those of a clean run,
// each address reached the service once and was billed once.
import { copyFile, mkdir, mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { VerificationService } from '../../../electron/core/service/verification-service.ts';
import { writeMarketingList } from '../../bench/marketing-list.ts';
import { startFaultProxy, type ProxyAction } from '../../support/fault-proxy.ts';
import { runSiftHere } from '../../support/run-sift-here.ts';
import { apiClient, startTestService } from '../../support/service-harness.ts';

const rows = 30_000;
let service: VerificationService;
let key: string;
let root: string;

beforeAll(async () => {
  // Live keys (billed) get the sandbox's scripted verdicts here (no mail servers); paced so the run takes seconds.
  service = await startTestService({ probesPerSecondPerHost: 100_000, probesPerRound: 5000 });
  const created = await service.dashboard.createKey('live', 'faults');
  await service.dashboard.setKeyRateLimits(created.record.id, { batchStatus: { limit: 100_000, windowSeconds: 60 } });
  await service.dashboard.topUp(1_000_000);
  key = created.key;
  root = await mkdtemp(join(tmpdir(), 'sift-faults-'));
  await mkdir(join(root, 'reference'));
  await mkdir(join(root, 'faulty'));
  await writeMarketingList(join(root, 'reference', 'list.csv'), rows);
  await copyFile(join(root, 'reference', 'list.csv'), join(root, 'faulty', 'list.csv'));
}, 60_000);
afterAll(() => service.close());

/** A seeded coin, so a failing run can be replayed exactly. */
function coin(seed: number) {
  let state = seed;
  return () => (state = (Math.imul(state, 1103515245) + 12345) >>> 0) / 2 ** 32;
}

/** A proxy that records the batches the uploads made, and answers as `fault` says for the rest. */
async function recordingProxy(fault: (route: string) => ProxyAction | undefined) {
  const batchIds: string[] = [];
  const proxy = await startFaultProxy(service.baseUrl, (request): ProxyAction => {
    const route = `${request.method} ${request.url.split('?')[0]!.replace(/bat_[0-9a-f]+/, '{id}')}`;
    return (
      fault(route) ?? {
        kind: 'rewrite',
        rewrite(answer) {
          if (route.endsWith('/files') && answer.status === 201) batchIds.push(JSON.parse(answer.body.toString()).id);
          return answer;
        },
      }
    );
  });
  return { proxy, batchIds };
}

async function atService(batchIds: readonly string[]): Promise<{ unique: number; definitive: number }> {
  const api = apiClient(service, key);
  const total = { unique: 0, definitive: 0 };
  for (const id of new Set(batchIds)) {
    const { unique, summary } = (await api('GET', `/batches/${id}`)).body;
    total.unique += unique;
    total.definitive += summary.valid + summary.invalid + summary.catch_all;
  }
  return total;
}

async function clean(folder: string, baseUrl: string) {
  return runSiftHere(['clean', join(root, folder, 'list.csv'), '--base-url', baseUrl], {
    SIFT_API_KEY: key,
    SIFT_DATA_DIR: join(root, `${folder}-data`),
  });
}

describe('sift clean through a faulty network', () => {
  it('gives the same outputs as a clean run, each address sent and billed once', async () => {
    const before = await service.dashboard.account();
    const reference = await recordingProxy(() => undefined);
    expect((await clean('reference', reference.proxy.baseUrl)).code).toBe(0);
    await reference.proxy.close();

    const flip = coin(20261122);
    const cutFlip = coin(20261126);
    const seen = new Map<string, number>();
    const faults = { '5xx': 0, dropped: 0, stalled: 0, cut: 0 };
    const faulty = await recordingProxy((route) => {
      const times = (seen.get(route) ?? 0) + 1;
      seen.set(route, times);
      const first = times === 1;
      // Every kind of request meets a fault at least once: the upload is answered but the answer lost, the
      // download is cut, a status call waits; then one request in ten gets a 5xx.
      if (first && (route.endsWith('/files') || route.endsWith('/results.csv'))) {
        faults.dropped += 1;
        return { kind: 'forward-then-drop' };
      }
      if (first && route.endsWith('/{id}')) {
        faults.stalled += 1;
        return { kind: 'stall', ms: 1500 };
      }
      // Answers cut off mid-body after their headers came (a proxy or load balancer timing out): the
      // account's second try (its first gets a 5xx), the download's second try, and a fifth of the status calls.
      const cutRoll = cutFlip();
      if (
        (times === 2 && route.endsWith('/account')) ||
        (times === 2 && route.endsWith('/results.csv')) ||
        (route.endsWith('/{id}') && cutRoll < 0.2)
      ) {
        faults.cut += 1;
        return { kind: 'forward-then-cut' };
      }
      const roll = flip();
      if (roll >= 0.1 && !(first && route.endsWith('/account'))) return undefined;
      faults['5xx'] += 1;
      return { kind: 'respond', status: roll < 0.05 ? 503 : 502, body: 'upstream trouble' };
    });
    try {
      const run = await clean('faulty', faulty.proxy.baseUrl);
      expect(run.stderr).not.toContain(key);
      expect(run.code, run.stderr).toBe(0);
    } finally {
      await faulty.proxy.close();
    }
    expect(faults, JSON.stringify(faults)).toMatchObject({ dropped: 2 });
    expect(faults.stalled).toBeGreaterThanOrEqual(1);
    expect(faults['5xx']).toBeGreaterThanOrEqual(1);
    expect(faults.cut).toBeGreaterThanOrEqual(2);

    for (const file of ['list.cleaned.csv', 'list.annotated.csv', 'list.summary.json']) {
      const same = (await readFile(join(root, 'faulty', file))).equals(await readFile(join(root, 'reference', file)));
      expect(same, file).toBe(true);
    }
    // The dropped upload was replayed, not made twice: one batch, the same addresses as the clean run's.
    expect(new Set(faulty.batchIds).size).toBe(new Set(reference.batchIds).size);
    const sent = await atService(reference.batchIds);
    expect(sent.unique).toBeGreaterThan(rows * 0.8);
    expect(await atService(faulty.batchIds)).toEqual(sent);
    // Each run paid once for its definitive verdicts (`unknown` is never billed).
    const after = await service.dashboard.account();
    expect(before.balance + before.freeRemaining - (after.balance + after.freeRemaining)).toBe(2 * sent.definitive);
  }, 300_000);
});
