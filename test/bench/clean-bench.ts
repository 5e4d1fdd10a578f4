// `npm run bench`: how fast a list goes through each stage, in rows per second, on this machine.
// Figures and ratios only; no pass or fail (speed goals are read here, not asserted in tests).
import { mkdtemp, open, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServiceClient } from '../../electron/core/client/service-client.ts';
import { prepareJob, runJob } from '../../electron/core/jobs/clean-job.ts';
import { openJobStore } from '../../electron/core/jobs/job-store.ts';
import { exportJob } from '../../electron/core/jobs/list-export.ts';
import { startVerificationService } from '../../electron/core/service/verification-service.ts';

const rows = Number(process.argv[2] ?? 100_000);
const dir = await mkdtemp(join(tmpdir(), 'sift-bench-'));
const input = join(dir, 'bench.csv');
const file = await open(input, 'w');
await file.write('id,email,name\n');
for (let start = 0; start < rows; start += 10_000) {
  const chunk = Array.from(
    { length: Math.min(10_000, rows - start) },
    (_, j) => `${start + j},person${start + j}@host${(start + j) % 1000}.example,Name ${start + j}`,
  );
  await file.write(`${chunk.join('\n')}\n`);
}
await file.close();

const service = await startVerificationService({
  dataDir: join(dir, 'service'),
  probesPerSecondPerHost: 100_000,
  probesPerRound: 5000,
});
const { key, record } = service.dashboard.createKey('sandbox', 'bench');
service.dashboard.setKeyRateLimits(record.id, { batchStatus: { limit: 10_000, windowSeconds: 60 } });
const client = createServiceClient({ baseUrl: service.baseUrl, apiKey: key });
const store = openJobStore(join(dir, 'jobs.sqlite'));

const timed = async <T>(work: () => Promise<T>): Promise<[T, number]> => {
  const started = performance.now();
  const result = await work();
  return [result, (performance.now() - started) / 1000];
};

let job = store.createJob(input, 'bench', {
  keep: ['valid'],
  neutraliseFormulas: true,
  bom: true,
  maxBatchSize: 50_000,
});
const [, importSeconds] = await timed(async () => (job = await prepareJob(store, job)));
const [, verifySeconds] = await timed(async () => (job = await runJob(store, job, client, { pollIntervalMs: 100 })));
const [, exportSeconds] = await timed(() => exportJob(store, job, dir));

const rate = (seconds: number) => Math.round(rows / seconds).toLocaleString('en');
console.log(`rows: ${rows.toLocaleString('en')} (${job.phase})`);
console.log(`import + pre-check: ${importSeconds.toFixed(2)} s, ${rate(importSeconds)} rows/s`);
console.log(`verify (sandbox, loopback HTTP): ${verifySeconds.toFixed(2)} s, ${rate(verifySeconds)} rows/s`);
console.log(`export (3 files): ${exportSeconds.toFixed(2)} s, ${rate(exportSeconds)} rows/s`);
const total = importSeconds + verifySeconds + exportSeconds;
console.log(`end to end: ${total.toFixed(2)} s, ${rate(total)} rows/s`);
console.log(
  `ratios: verify/import ${(verifySeconds / importSeconds).toFixed(2)}, export/import ${(exportSeconds / importSeconds).toFixed(2)}`,
);

store.close();
await service.close();
await rm(dir, { recursive: true, force: true });
