// How close the live estimate comes to the time the batch then takes: within 20%, on a list spread over
// known mail servers. A figure against the wall clock, which holds on an idle machine: it is in the timing
// tier (`npm run test:timing`), not in `npm test`, which checks what the estimate says and how it moves
// (smtp-estimate.test.ts).
import { afterAll, beforeAll, expect, it } from 'vitest';
import {
  followBatch,
  startEstimatedBatch,
  startEstimateWorld,
  type EstimateWorld,
} from '../../support/estimate-world.ts';

let estimates: EstimateWorld;
beforeAll(async () => {
  estimates = await startEstimateWorld();
});
afterAll(() => estimates?.close());

it('says near the start of a live batch within 20% of the time it then takes', async () => {
  const { run } = estimates;
  const { id, first } = await startEstimatedBatch(run);
  expect(first.estimate).toMatchObject({ pace: 'polite' });
  const { body, took } = await followBatch(run, id, first);
  expect(body.status).toBe('complete');
  const said = `estimated ${first.estimate.seconds_left} s, took ${took.toFixed(2)} s`;
  console.info(`live estimate: ${said}`);
  expect(Math.abs(first.estimate.seconds_left - took), said).toBeLessThanOrEqual(0.2 * took);
}, 40_000);
