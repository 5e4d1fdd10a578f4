// One clean of a list, stage by stage, in its own process so its peak memory is its own:
// import and pre-check, verification on Sift's own service (sandbox), export of the three files; then the
// same list verified again the way a service without Sift's shortcuts is (POST /batches, cursor pages);
// and, given a data folder whose verdict cache knows the list, the import again with its cache lookups.
// argv: <input.csv> <data dir> <out dir> [cache data dir]. Prints one JSON line of seconds and peak RSS.
import { keepHeapNearLive } from '../../electron/core/app/heap-tuning.ts';
import { defaultJobSettings } from '../../electron/core/jobs/job-settings.ts';
import { openJobStore } from '../../electron/core/jobs/store/index.ts';
import { createCleaner } from '../../electron/core/jobs/list-cleaner.ts';
import { createServiceClient } from '../../electron/core/client/service-client.ts';
import { startEmbeddedService } from '../../electron/core/service/embedded-service.ts';

const [input, dataDir, outDir, cacheDir] = process.argv.slice(2) as [string, string, string, string?];
keepHeapNearLive(); // as sift and the app do
const seconds = (from: number) => (performance.now() - from) / 1000;

const started = performance.now();
const service = await startEmbeddedService(dataDir);
const client = createServiceClient({ baseUrl: service.baseUrl, apiKey: service.apiKey });
const store = openJobStore(dataDir);
const cleaner = createCleaner(store);
let job = await cleaner.jobForInput(input, defaultJobSettings, { restart: true });
let at = performance.now();
job = await cleaner.prepare(job, client.mode);
const importSeconds = seconds(at);
at = performance.now();
job = await cleaner.run(job, client, { pollIntervalMs: 100 });
const verifySeconds = seconds(at);
at = performance.now();
await cleaner.export(job, outDir);
const exportSeconds = seconds(at);
// The spec's path on the same service: an account that names no shortcut, as a hosted service's would not.
const specOnly = {
  ...client,
  getAccount: async (options?: { signal?: AbortSignal }) => ({ ...(await client.getAccount(options)), features: [] }),
};
let specJob = await cleaner.prepare(
  await cleaner.jobForInput(input, defaultJobSettings, { restart: true }),
  client.mode,
);
at = performance.now();
specJob = await cleaner.run(specJob, specOnly, { pollIntervalMs: 100 });
const specVerifySeconds = seconds(at);
if (specJob.phase !== 'done') throw new Error(`the spec's path ended ${specJob.phase}`);
let importCachedSeconds: number | undefined;
let cachedShare: number | undefined;
if (cacheDir) {
  const cached = createCleaner(store, { cacheDir });
  const cachedJob = await cached.jobForInput(input, defaultJobSettings, { restart: true });
  at = performance.now();
  const imported = await cached.prepare(cachedJob, client.mode);
  importCachedSeconds = seconds(at);
  cachedShare = (imported.precheck?.cached ?? 0) / (imported.precheck?.toCheck ?? 1);
}
store.close();
await service.close();
console.log(
  JSON.stringify({
    phase: job.phase,
    importSeconds,
    verifySeconds,
    exportSeconds,
    specVerifySeconds,
    importCachedSeconds,
    cachedShare,
    totalSeconds: seconds(started),
    peakRssMb: Math.round(process.resourceUsage().maxRSS / 1024),
  }),
);
