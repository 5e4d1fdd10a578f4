// The row explorer's search on a list `sift clean` made (argv[2]: its data folder): a search for one
// address by a pass over every row (as before the index, and as a list not yet indexed is searched), the
// index's build on its own thread, and the same search from the index. Prints JSON.
import { openJobStore } from '../../electron/core/jobs/store/index.ts';
import { createRowExplorer, searchIndexes } from '../../electron/core/jobs/views/index.ts';

const store = openJobStore(process.argv[2]!);
const job = store.recentJobs(10).find((candidate) => candidate.inputPath.endsWith('list.csv'))!;
const request = (search: string) => ({ offset: 0, limit: 50, filter: 'all' as const, search });
const seconds = async (work: () => Promise<unknown>) => {
  const started = performance.now();
  await work();
  return (performance.now() - started) / 1000;
};
const scanning = createRowExplorer(store);
// The row text is kept the first time a list is explored (what the app does when results open).
const keepText = await seconds(() => scanning.page(job, { offset: 0, limit: 1, filter: 'all', search: '' }));
const target = Math.floor(job.rowsTotal * 0.77);
const cells = (await scanning.page(job, { offset: target - 1, limit: 1, filter: 'all', search: '' })).rows[0]!.cells;
const address = cells.find((cell) => cell.includes('@'))!;
const scan = await seconds(() => scanning.page(job, request(address)));
const indexes = searchIndexes((message) => console.error(message));
const build = await seconds(() => indexes.prepare(job.id, store.listPath(job.id)).indexed);
const indexed = createRowExplorer(store, indexes);
let found = 0;
const first = await seconds(async () => (found = (await indexed.page(job, request(address))).total));
const again = await seconds(() => indexed.page(job, request(address.slice(0, -3))));
store.close();
console.log(JSON.stringify({ rows: job.rowsTotal, keepText, scan, build, first, again, found }));
