// The time a live batch has left, from the politeness bound: each mail server (a server address, however
// many MX names point at it) asked at its rate. On a list spread over known servers, the estimate given
// near the start is within 20% of the time the batch then takes, and names where most of it goes.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { runBatch, startEngineService, type EngineRun } from '../../../../../support/engine-harness.ts';
import { startMailWorld, type MailWorld } from '../../../../../support/mail-world.ts';

const rate = 10;
let world: MailWorld;
let run: EngineRun;
beforeAll(async () => {
  world = await startMailWorld({
    hosts: {
      'mx.big.test': { ip: '127.0.0.2', others: 'accept' },
      // Two customers of one hosting company: one server, one budget.
      'mx1.hoster.test': { ip: '127.0.0.3', others: 'accept', aliases: ['one.mx.hoster.test', 'two.mx.hoster.test'] },
      'mx.small.test': { ip: '127.0.0.4', others: 'accept' },
    },
    domains: {
      'big.test': { mx: ['mx.big.test'] },
      'one.test': { mx: ['one.mx.hoster.test'] },
      'two.test': { mx: ['two.mx.hoster.test'] },
      'small.test': { mx: ['mx.small.test'] },
    },
  });
  run = await startEngineService(world, { perHostRate: rate, perHostConcurrency: 2 });
});
afterAll(async () => {
  await run?.service.close();
  await world?.close();
});

const people = (count: number, domain: string) => Array.from({ length: count }, (_, i) => `p${i}@${domain}`);

it('says how long a live batch has left at a polite pace, within 20% of the time it then takes', async () => {
  // The servers are known already (their DNS answers and catch-all findings kept), as on a second list.
  await runBatch(run, ['warm@big.test', 'warm@one.test', 'warm@two.test', 'warm@small.test']);
  const emails = [
    ...people(60, 'big.test'),
    ...people(20, 'one.test'),
    ...people(20, 'two.test'),
    ...people(15, 'small.test'),
  ];
  const created = await run.api('POST', '/batches', { name: 'estimate', emails });
  expect(created.status).toBe(201);
  const id = created.body.id as string;
  // Once the engine has queued it (its next round, a moment later).
  let first = (await run.api('GET', `/batches/${id}`)).body;
  for (let tries = 0; !first.estimate && tries < 40; tries += 1) {
    await new Promise((resolve) => setTimeout(resolve, 25));
    first = (await run.api('GET', `/batches/${id}`)).body;
  }
  const startedAt = Date.now();
  // Sift's own field: the bound, where most of it goes, and this batch's addresses there.
  expect(first.estimate).toMatchObject({ pace: 'polite', largest: { name: 'mx.big.test' } });
  expect(first.estimate.largest.pending).toBeGreaterThan(50);
  // `sift service status` says the same from the dashboard.
  const [running] = await run.service.dashboard.runningBatches();
  expect(running).toMatchObject({
    id,
    mode: 'live',
    unique: emails.length,
    estimate: { largest: { name: 'mx.big.test' } },
  });
  let body = first;
  while (body.status === 'running' && Date.now() - startedAt < 30_000) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    body = (await run.api('GET', `/batches/${id}`)).body;
  }
  expect(body.status).toBe('complete');
  expect(body.estimate).toBeUndefined();
  const took = (Date.now() - startedAt) / 1000;
  const said = `estimated ${first.estimate.seconds_left} s, took ${took.toFixed(2)} s`;
  expect(Math.abs(first.estimate.seconds_left - took), said).toBeLessThanOrEqual(0.2 * took);
}, 40_000);

it('gives no estimate for a sandbox batch, whose verdicts wait on no mail server', async () => {
  const { key } = await run.service.dashboard.createKey('sandbox', 'sandbox');
  const { apiClient } = await import('../../../../../support/service-harness.ts');
  const api = apiClient(run.service, key);
  const created = await api('POST', '/batches', { name: 'demo', emails: people(5, 'big.test') });
  expect(created.body.estimate).toBeUndefined();
  expect((await api('GET', `/batches/${created.body.id}`)).body.estimate).toBeUndefined();
});
