// The service for a team: addresses per second through a batch with 1, 2 and 4 worker processes on one
// PostgreSQL database (one API process beside them), against SQLite's single process. A sandbox key's
// batch is answered while it is staged, so this uses a live key whose engine is the sandbox's scripted
// verdicts: the workers claim, pace (set far out of the way) and record every address as for a real
// engine, without the wait on mail servers. Each run gets a fresh database. Figures and ratios only.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { prepareKey } from '../support/service-harness.ts';
import { startChildService, type ChildService } from '../support/child-service.ts';
import { createDatabase, startPostgresServer } from '../support/postgres-server.ts';

type Place = { dataDir: string; database?: string };

/**
 * Seconds to stage the batch (its POST), and from its 201 to its completion, with `workers` worker
 * processes (0: one process does all).
 */
async function timeBatch(place: Place, workers: number, emails: string[]) {
  const limits = { batchStatus: { limit: 1_000_000, windowSeconds: 60 } };
  const key = await prepareKey(place, { mode: 'live', limits, topUp: emails.length });
  const config = { ...place, probesPerSecondPerHost: 1_000_000 };
  const children: ChildService[] = [];
  try {
    const api = await startChildService(config, [], { role: workers === 0 ? 'all' : 'api' });
    children.push(api);
    for (let i = 0; i < workers; i += 1) children.push(await startChildService(config, [], { role: 'worker' }));
    const call = async (method: string, path: string, body?: unknown) => {
      const response = await fetch(`${api.baseUrl}${path}`, {
        method,
        headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return { status: response.status, body: (await response.json()) as { id: string; status: string } };
    };
    const posted = performance.now();
    const created = await call('POST', '/batches', { name: 'bench', emails });
    if (created.status !== 201) throw new Error(`the bench batch was refused (${created.status})`);
    const started = performance.now();
    // Bounded: ten minutes at most.
    for (let polls = 0; polls < 12_000; polls += 1) {
      const status = await call('GET', `/batches/${created.body.id}`);
      if (status.status !== 200) throw new Error(`the bench batch could not be read: ${JSON.stringify(status.body)}`);
      if (status.body.status === 'complete') break;
      if (status.body.status !== 'running') throw new Error(`the bench batch ended ${status.body.status}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    return { staging: (started - posted) / 1000, verifying: (performance.now() - started) / 1000 };
  } finally {
    for (const child of children) await child.kill();
  }
}

export async function runWorkersBench(addressCount = 100_000): Promise<void> {
  const emails = Array.from({ length: addressCount }, (_, i) => `person${i}@host${i % 500}.example`);
  const root = await mkdtemp(join(tmpdir(), 'sift-workers-bench-'));
  const server = await startPostgresServer();
  try {
    const sqlite = await timeBatch({ dataDir: await mkdtemp(join(root, 'sqlite-')) }, 0, emails);
    const rate = (seconds: number) => `${Math.round(addressCount / seconds).toLocaleString('en')}/s`.padStart(9);
    const line = (label: string, times: { staging: number; verifying: number }) =>
      `  ${label.padEnd(22)} staged ${times.staging.toFixed(2).padStart(6)} s, verified ${times.verifying.toFixed(2).padStart(6)} s` +
      `  ${rate(times.verifying)}`;
    console.log(
      `\nthe service for a team: a ${addressCount.toLocaleString('en')}-address live batch on scripted verdicts`,
    );
    console.log(line('SQLite, one process', sqlite));
    for (const workers of [1, 2, 4]) {
      const place = {
        dataDir: await mkdtemp(join(root, `pg-${workers}-`)),
        database: await createDatabase(server.adminUrl, `bench_${workers}`),
      };
      const times = await timeBatch(place, workers, emails);
      const label = `PostgreSQL, ${workers} worker${workers === 1 ? '' : 's'}`;
      console.log(`${line(label, times)}  ${(sqlite.verifying / times.verifying).toFixed(2)}× SQLite's rate`);
    }
  } finally {
    await server.stop();
    await rm(root, { recursive: true, force: true });
  }
}
