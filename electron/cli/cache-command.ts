// `sift cache stats|clear`: the verdict cache the app and `sift clean` share (core/cache/), as seen from
// a terminal: how much it holds and how old it is, and forgetting all of it.
import { parseArgs } from 'node:util';
import { formatBytes } from '../common/byte-sizes.ts';
import type { CacheStats } from '../common/contract.ts';
import { privateDataDir } from './data-folder.ts';
import { verdictCacheIn } from '../core/cache/index.ts';
import { CliExit, exitCodes, type CliIo } from './cli-io.ts';
import { count, day } from './cli-format.ts';

export const cacheUsage = 'sift cache stats|clear [--json]';

function describeStats(stats: CacheStats, path: string): string {
  const ages = Object.entries(stats.maxAgeDays)
    .map(([result, days]) => `${result} ${days} days`)
    .join(', ');
  const held =
    stats.entries === 0
      ? 'empty'
      : `${count(stats.entries)} verdicts (${count(stats.live)} live, ${count(stats.sandbox)} demo), ` +
        `the oldest from ${day(stats.oldest!)}, ${formatBytes(stats.bytes)}`;
  return `Verdict cache: ${held}.\n  ${path}\nReused for: ${ages}; unknown never. \`sift cache clear\` forgets them all.\n`;
}

export async function runCache(argv: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: { json: { type: 'boolean', default: false } },
  });
  const [action] = positionals;
  if (positionals.length !== 1 || (action !== 'stats' && action !== 'clear'))
    throw new CliExit(exitCodes.usage, `Usage: ${cacheUsage}`);
  const cache = verdictCacheIn(privateDataDir(io));
  if (action === 'clear') {
    const { forgotten } = cache.clear();
    io.out(values.json ? `${JSON.stringify({ forgotten })}\n` : `Forgot ${count(forgotten)} kept verdicts.\n`);
  } else {
    const stats = cache.stats();
    io.out(
      values.json ? `${JSON.stringify({ ...stats, path: cache.path }, null, 2)}\n` : describeStats(stats, cache.path),
    );
  }
  return exitCodes.done;
}
