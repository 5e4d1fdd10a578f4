// `sift` as a person runs it, reporting its own peak memory when it ends: argv as for sift.ts, with
// the file to write {"peakRssMb": N} to first.
import { writeFileSync } from 'node:fs';
import { main } from '../../electron/cli/sift.ts';
import { keepCompiledModules } from '../../electron/core/app/compile-cache.ts';

keepCompiledModules(); // as sift does when a person runs it
const [reportPath, ...argv] = process.argv.slice(2) as [string, ...string[]];
const code = await main(argv, {
  out: () => {},
  err: (text) => void process.stderr.write(text),
  interactive: false,
  env: process.env,
});
writeFileSync(reportPath, JSON.stringify({ code, peakRssMb: Math.round(process.resourceUsage().maxRSS / 1024) }));
process.exitCode = code;
