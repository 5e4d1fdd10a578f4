// A list spread over known mail servers, for the live estimate: 60 addresses at one server, 40 at a hosting
// company's one server under two names, 15 at a third, each asked at `rate` a second; the servers' DNS
// answers and catch-all findings are kept already, as on a second list.
import { runBatch, startEngineService, type EngineRun } from './engine-harness.ts';
import { startMailWorld, type MailWorld } from './mail-world.ts';
import type { ApiResponse } from './service-harness.ts';

export const estimateRate = 10;

export type EstimateWorld = { world: MailWorld; run: EngineRun; close(): Promise<void> };

export async function startEstimateWorld(): Promise<EstimateWorld> {
  const world = await startMailWorld({
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
  const run = await startEngineService(world, { perHostRate: estimateRate, perHostConcurrency: 2 });
  await runBatch(run, ['warm@big.test', 'warm@one.test', 'warm@two.test', 'warm@small.test']);
  return {
    world,
    run,
    async close() {
      await run.service.close();
      await world.close();
    },
  };
}

export const people = (count: number, domain: string) => Array.from({ length: count }, (_, i) => `p${i}@${domain}`);

/** Submits the list and answers its id and its status body once the engine has queued it and says an estimate. */
export async function startEstimatedBatch(run: EngineRun) {
  const emails = [
    ...people(60, 'big.test'),
    ...people(20, 'one.test'),
    ...people(20, 'two.test'),
    ...people(15, 'small.test'),
  ];
  const created = await run.api('POST', '/batches', { name: 'estimate', emails });
  if (created.status !== 201) throw new Error(`batch refused: ${created.text}`);
  const id = created.body.id as string;
  // Once the engine has queued it (its next round, a moment later).
  let first = (await run.api('GET', `/batches/${id}`)).body;
  for (let tries = 0; !first.estimate && tries < 40; tries += 1) {
    await new Promise((resolve) => setTimeout(resolve, 25));
    first = (await run.api('GET', `/batches/${id}`)).body;
  }
  return { id, emails, first };
}

/**
 * Polls the batch every 100 ms until it ends (30 s at most), from its status body `first`; `onStatus` sees
 * each body polled. Answers the last body and the seconds it took from the call.
 */
export async function followBatch(
  run: EngineRun,
  id: string,
  first: ApiResponse['body'],
  onStatus: (body: ApiResponse['body']) => void = () => {},
) {
  const startedAt = Date.now();
  let body = first;
  while (body.status === 'running' && Date.now() - startedAt < 30_000) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    body = (await run.api('GET', `/batches/${id}`)).body;
    onStatus(body);
  }
  return { body, took: (Date.now() - startedAt) / 1000 };
}
