// The time a live batch has left, from the politeness bound: each mail server (a server address, however
// many MX names point at it) asked at its rate. On a list spread over known servers, the estimate is what
// the busiest server's share at its rate takes, names that server, shrinks as the batch goes, and is gone
// when it ends. (How close it comes to the time the batch then takes is a figure of the timing tier:
// test/integration/timing/estimate-accuracy.test.ts.)
import { afterAll, beforeAll, expect, it } from 'vitest';
import {
  estimateRate,
  followBatch,
  people,
  startEstimatedBatch,
  startEstimateWorld,
  type EstimateWorld,
} from '../../../../../support/estimate-world.ts';

let estimates: EstimateWorld;
beforeAll(async () => {
  estimates = await startEstimateWorld();
});
afterAll(() => estimates?.close());

it('says how long a live batch has left at a polite pace, and where most of it goes', async () => {
  const { run } = estimates;
  const { id, emails, first } = await startEstimatedBatch(run);
  // Sift's own field: the bound, where most of it goes, and this batch's addresses there.
  expect(first.estimate).toMatchObject({ pace: 'polite', largest: { name: 'mx.big.test' } });
  const pending = first.estimate.largest.pending as number;
  expect(pending).toBeGreaterThan(50);
  // The busiest server's addresses, one every tenth of a second: N addresses take N - 1 intervals (rounded up).
  expect(first.estimate.seconds_left).toBeGreaterThanOrEqual(Math.floor((pending - 1) / estimateRate));
  expect(first.estimate.seconds_left).toBeLessThanOrEqual(Math.ceil(pending / estimateRate) + 1);
  // `sift service status` says the same from the dashboard.
  const [running] = await run.service.dashboard.runningBatches();
  expect(running).toMatchObject({
    id,
    mode: 'live',
    unique: emails.length,
    estimate: { largest: { name: 'mx.big.test' } },
  });
  const said: number[] = [];
  const { body } = await followBatch(run, id, first, (status) => {
    if (status.estimate) said.push(status.estimate.seconds_left);
  });
  expect(body.status).toBe('complete');
  expect(body.estimate).toBeUndefined();
  // It went down as the batch went, never up.
  expect(said.length).toBeGreaterThan(3);
  expect(said.every((seconds, i) => i === 0 || seconds <= said[i - 1]!)).toBe(true);
  expect(said.at(-1)!).toBeLessThan(first.estimate.seconds_left);
}, 40_000);

it('gives no estimate for a sandbox batch, whose verdicts wait on no mail server', async () => {
  const { run } = estimates;
  const { key } = await run.service.dashboard.createKey('sandbox', 'sandbox');
  const { apiClient } = await import('../../../../../support/service-harness.ts');
  const api = apiClient(run.service, key);
  const created = await api('POST', '/batches', { name: 'demo', emails: people(5, 'big.test') });
  expect(created.body.estimate).toBeUndefined();
  expect((await api('GET', `/batches/${created.body.id}`)).body.estimate).toBeUndefined();
});
