// `npm run bench`: how a list goes through Sift, measured against a bare papaparse streaming parse of
// the same file in the same run. Figures and ratios only, no pass or fail: speed goals are read here,
// never asserted in tests. `npm run bench -- --rows 100000,1000000,10000000` picks the sizes
// (`--10m` adds ten million to the default 100k and 1M); then the local engine's pacing against mail
// servers on loopback (`--engine-only` runs just that), the service's throughput with several worker
// processes on PostgreSQL (`--workers-only` runs just that), and the single executable against the
// repository's sift (`--binary-only` runs just that), and bounces read back from a Dovecot mailbox with the
// accuracy ledger (`--outcomes-only`), and a 100,000-member audience read from and written back to Mailchimp
// and HubSpot test servers (`--connectors-only`).
import { execFileSync, spawnSync } from 'node:child_process';
import { createReadStream, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import Papa from 'papaparse';
import { runEngineBench } from './engine-bench.ts';
import { runWorkersBench } from './workers-bench.ts';
import { runBinaryBench } from './binary-bench.ts';
import { runOutcomesBench } from './outcomes-bench.ts';
import { runConnectorsBench } from './connectors-bench.ts';
import { marketingColumns, writeMarketingList } from './marketing-list.ts';
import { writeCachedRows } from './cached-list.ts';

const { values } = parseArgs({
  options: {
    rows: { type: 'string' },
    '10m': { type: 'boolean', default: false },
    'engine-only': { type: 'boolean', default: false },
    'workers-only': { type: 'boolean', default: false },
    'binary-only': { type: 'boolean', default: false },
    'outcomes-only': { type: 'boolean', default: false },
    'connectors-only': { type: 'boolean', default: false },
  },
});
const sizes =
  values['engine-only'] ||
  values['workers-only'] ||
  values['binary-only'] ||
  values['outcomes-only'] ||
  values['connectors-only']
    ? []
    : (values.rows ?? `100000,1000000${values['10m'] ? ',10000000' : ''}`).split(',').map(Number);
/** `sift` runs with the Node flags its own first line gives (a smaller young generation keeps its memory low). */
const siftPath = new URL('../../electron/cli/sift.ts', import.meta.url).pathname;
const nodeArgs = /^#!\/usr\/bin\/env -S node (.*)$/m
  .exec(readFileSync(siftPath, 'utf8').split('\n')[0]!)![1]!
  .split(' ');
const here = (name: string) => new URL(name, import.meta.url).pathname;

/**
 * The bare parse, the yardstick of every ratio, is parsed three times before the runs it measures and three
 * times after, and the median is taken: one parse varies by a fifth from run to run here, and the machine's
 * pace drifts over a minute of runs (the spread is printed, so a drift is seen).
 */
async function bareParses(path: string): Promise<number[]> {
  return [await oneBareParse(path), await oneBareParse(path), await oneBareParse(path)];
}

const median = (values: readonly number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length / 2;
  return sorted.length % 2 === 1 ? sorted[Math.floor(middle)]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};

async function oneBareParse(path: string): Promise<number> {
  const started = performance.now();
  let rows = 0;
  await new Promise<void>((resolve, reject) => {
    Papa.parse(createReadStream(path, { encoding: 'utf8' }) as unknown as File, {
      step: () => void (rows += 1),
      complete: () => resolve(),
      error: reject,
    });
  });
  if (rows === 0) throw new Error('bare parse read no rows');
  return (performance.now() - started) / 1000;
}

function runNode(script: string, args: string[], env = process.env): { stdout: string; seconds: number } {
  const started = performance.now();
  const run = spawnSync(process.execPath, [...nodeArgs, script, ...args], {
    encoding: 'utf8',
    maxBuffer: 1 << 24,
    env,
  });
  if (run.status !== 0) throw new Error(`${script} failed (${run.status}): ${run.stderr}`);
  return { stdout: run.stdout, seconds: (performance.now() - started) / 1000 };
}

const fmt = (value: number, digits = 2) => value.toFixed(digits);
const results: { rows: number; parse: number; whole: number; rss: number }[] = [];
const root = await mkdtemp(join(tmpdir(), 'sift-bench-'));
try {
  for (const rows of sizes) {
    const dir = join(root, String(rows));
    await mkdir(join(dir, 'out'), { recursive: true });
    const input = join(dir, 'list.csv');
    await writeMarketingList(input, rows);
    execFileSync('cat', [input], { stdio: 'ignore', maxBuffer: 1 << 30 }); // the file is in the OS cache for every reader
    const parsesBefore = await bareParses(input);
    const report = join(dir, 'sift-report.json');
    // Its own data folder: never the person's, and never a service store grown by earlier runs.
    const siftData = { ...process.env, SIFT_DATA_DIR: join(dir, 'sift-data') };
    const clean = (extra: string[], list = input) => {
      const { seconds } = runNode(
        here('./measured-sift.ts'),
        [report, 'clean', list, '--out', join(dir, 'out'), ...extra],
        siftData,
      );
      return { seconds, ...(JSON.parse(readFileSync(report, 'utf8')) as { peakRssMb: number }) };
    };
    const { seconds: whole, peakRssMb } = clean([]);
    // The same list again: every address the cache keeps is reused (unknown verdicts never are).
    const cachedRun = clean(['--restart']);
    // Issue 29's measure: a list whose every address the cache knows (the rows above it reuses), parsed bare too.
    const knownInput = join(dir, 'known.csv');
    const knownRows = await writeCachedRows(
      join(dir, 'out', 'list.demo.annotated.csv'),
      knownInput,
      marketingColumns.length,
    );
    const knownParse = median(await bareParses(knownInput));
    const knownRun = clean([], knownInput);
    // The stages last: the import with cache lookups asks the cache the runs above filled.
    const stages = JSON.parse(
      runNode(here('./stage-run.ts'), [input, join(dir, 'stages-data'), join(dir, 'out'), join(dir, 'sift-data')])
        .stdout,
    );
    // Finding one address in the list's row explorer: by a pass over every row, and from the search index.
    const search = JSON.parse(runNode(here('./search-bench.ts'), [join(dir, 'sift-data')]).stdout);
    // The same in the app, five seconds after the list is done: Start at once, and after a person's review.
    const appSearch = (review: number) =>
      JSON.parse(
        runNode(here('./app-search-bench.ts'), [input, join(dir, `app-data-${review}`), String(review)]).stdout,
      );
    const [atOnce, reviewed] = [appSearch(0), appSearch(15)];
    const parses = [...parsesBefore, ...(await bareParses(input))];
    const parse = median(parses);
    results.push({ rows, parse, whole, rss: peakRssMb });
    console.log(
      `\n${rows.toLocaleString('en')} rows (${stages.phase}); bare papaparse parse ${fmt(parse)} s ` +
        `(median of six, before and after the runs: ${fmt(Math.min(...parses))}–${fmt(Math.max(...parses))} s)`,
    );
    for (const [label, seconds] of [
      ['import + pre-check', stages.importSeconds],
      ['import, cache lookups', stages.importCachedSeconds],
      ['verify (sandbox)', stages.verifySeconds],
      ["verify, spec's path", stages.specVerifySeconds],
      ['export (3 files)', stages.exportSeconds],
      ['whole `sift clean`', whole],
      ['again, from cache', cachedRun.seconds],
    ] as const) {
      console.log(`  ${label.padEnd(20)} ${fmt(seconds).padStart(7)} s  ${fmt(seconds / parse, 1).padStart(6)}× parse`);
    }
    console.log(
      `  peak RSS             ${String(peakRssMb).padStart(7)} MB (sift clean); ${stages.peakRssMb} MB (stages)`,
    );
    console.log(
      `  again from the cache: ${fmt(stages.cachedShare * 100, 0)}% of the addresses known, peak RSS ${cachedRun.peakRssMb} MB; ` +
        `import with lookups ×${fmt(stages.importCachedSeconds / stages.importSeconds)} the import without`,
    );
    console.log(
      `  every address cached: ${knownRows.toLocaleString('en')} rows of the list, ${fmt(knownRun.seconds)} s, ` +
        `${fmt(knownRun.seconds / knownParse, 1)}× their own bare parse (${fmt(knownParse)} s), peak RSS ${knownRun.peakRssMb} MB`,
    );
    console.log(
      `  spec's path (POST /batches, cursor pages) against the shortcuts (POST /files, CSV download): ×${fmt(stages.specVerifySeconds / stages.verifySeconds, 1)}`,
    );
    console.log(
      `  search for one address: ${fmt(search.first, 3)} s from the index (built in ${fmt(search.build, 1)} s on its own ` +
        `thread), ${fmt(search.scan, 2)} s by a pass over every row; a second search ${fmt(search.again, 3)} s` +
        ` (row text kept in ${fmt(search.keepText, 1)} s)`,
    );
    console.log(
      `  in the app, 5 s after the list is done: a search ${fmt(atOnce.searchSeconds, 3)} s (Start at once: checked in ` +
        `${fmt(atOnce.checkSeconds, 1)} s, the row text and index made meanwhile); ${fmt(reviewed.searchSeconds, 3)} s ` +
        `after 15 s on the review screen (checked in ${fmt(reviewed.checkSeconds, 1)} s)`,
    );
  }
  for (let i = 1; i < results.length; i += 1) {
    const [small, large] = [results[i - 1]!, results[i]!];
    console.log(
      `\ngrowth ${small.rows.toLocaleString('en')} → ${large.rows.toLocaleString('en')} rows (×${large.rows / small.rows}): ` +
        `whole ×${fmt(large.whole / small.whole, 1)}, bare parse ×${fmt(large.parse / small.parse, 1)}`,
    );
  }
} finally {
  await rm(root, { recursive: true, force: true });
}
const only =
  values['engine-only'] ||
  values['workers-only'] ||
  values['binary-only'] ||
  values['outcomes-only'] ||
  values['connectors-only'];
// The single executable against the repository's sift: starts, and a 1M-row clean (or the largest size asked).
if (!only || values['binary-only'])
  await runBinaryBench(sizes.length > 0 ? Math.min(Math.max(...sizes), 1_000_000) : 1_000_000);
// The local engine against mail servers on loopback (live keys): pacing per host.
if (!only || values['engine-only']) await runEngineBench();
// The service for a team: worker processes on PostgreSQL.
if (!only || values['workers-only']) await runWorkersBench();
// Bounces read back from a Dovecot bounce mailbox, and the accuracy ledger (root and Dovecot, else skipped).
if (!only || values['outcomes-only']) await runOutcomesBench();
// A 100,000-member audience read and written back, against the Mailchimp and HubSpot test servers.
if (!only || values['connectors-only']) await runConnectorsBench();
