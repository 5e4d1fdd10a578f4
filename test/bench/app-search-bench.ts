// The app's search on a list it has just checked (argv[2]: the list; argv[3]: a data folder): the list goes
// through the app's own calls on Sift's own service (sandbox key), and five seconds after it is done a
// search for one address is timed, as a person opening the results would search. Its row text and
// index are made while the list is checked, so the search should come from the index. Prints JSON.
import { createAppRuntime } from '../../electron/core/app/app-runtime.ts';
import type { ExplorerRow, JobOverview } from '../../electron/common/contract.ts';

const [input, dataDir] = [process.argv[2]!, process.argv[3]!];
/** Seconds a person spends on the review screen before Start (argv[4]; 0: Start at once, the worst case). */
const reviewSeconds = Number(process.argv[4] ?? 0);
const runtime = await createAppRuntime({ dataDir, appVersion: 'bench' });
const call = async <T>(name: string, request: unknown): Promise<T> => {
  const envelope = await runtime.dispatch(name, request, { transport: 'ipc' });
  if (!envelope.ok) throw new Error(`${name}: ${envelope.error.message}`);
  return envelope.value as T;
};
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
try {
  const created = await call<JobOverview>('jobs:create', { file: { kind: 'path', path: input } });
  await sleep(reviewSeconds * 1000);
  const started = performance.now();
  await call('jobs:start', { jobId: created.jobId });
  let job = created;
  while (job.phase !== 'done') {
    if (job.phase === 'failed' || job.phase === 'canceled')
      throw new Error(`the list ended ${job.phase}: ${job.error}`);
    await sleep(100);
    job = await call<JobOverview>('jobs:get', { jobId: created.jobId });
  }
  const checkSeconds = (performance.now() - started) / 1000;
  await sleep(5000);
  const page = (request: Record<string, unknown>) =>
    call<{ total: number; rows: ExplorerRow[] }>('jobs:rows', {
      jobId: created.jobId,
      offset: 0,
      limit: 50,
      ...request,
    });
  // An address three quarters down the list, read as the explorer shows it.
  const target = Math.floor(job.rows * 0.77);
  const [row] = (await page({ offset: target - 1, limit: 1 })).rows;
  const address = row!.cells.find((cell) => cell.includes('@'))!;
  const before = performance.now();
  const found = await page({ search: address });
  const searchSeconds = (performance.now() - before) / 1000;
  console.log(JSON.stringify({ rows: job.rows, reviewSeconds, checkSeconds, searchSeconds, found: found.total }));
} finally {
  await runtime.close();
}
