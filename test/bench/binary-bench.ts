// The single executable against the repository's own `sift` (`npm run sift`, Node running the TypeScript
// source with its compiled-module cache): how fast each starts (`--version`, a 10-row clean) and a whole
// list's clean, with peak memory. Both run as a person runs them, each as a process timed by /usr/bin/time.
import { spawnSync } from 'node:child_process';
import { mkdir, mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { builtSift } from '../support/sift-binary.ts';
import { writeMarketingList } from './marketing-list.ts';

const siftSource = new URL('../../electron/cli/sift.ts', import.meta.url).pathname;
const nodeFlags = ['--disable-warning=ExperimentalWarning', '--max-semi-space-size=16'];

type Timed = { seconds: number; peakRssMb: number };

/** One run, timed from outside: wall seconds and peak RSS as the kernel counts them. */
function timed(command: string[], env: NodeJS.ProcessEnv): Timed {
  const run = spawnSync('/usr/bin/time', ['-f', '%e %M', ...command], { encoding: 'utf8', env, maxBuffer: 1 << 24 });
  if (run.status !== 0) throw new Error(`${command.join(' ')} failed (${run.status}): ${run.stderr}`);
  const [seconds, kb] = run.stderr.trim().split('\n').at(-1)!.split(' ').map(Number) as [number, number];
  return { seconds, peakRssMb: Math.round(kb / 1024) };
}

const median = (runs: Timed[]): Timed => {
  const sorted = [...runs].sort((a, b) => a.seconds - b.seconds);
  return sorted[Math.floor(sorted.length / 2)]!;
};

const fmt = (value: number) => value.toFixed(2);

export async function runBinaryBench(rows: number): Promise<void> {
  const { executable, archive } = await builtSift();
  const root = await mkdtemp(join(tmpdir(), 'sift-binary-bench-'));
  const ways = {
    binary: (args: string[]) => [executable, ...args],
    repository: (args: string[]) => [process.execPath, ...nodeFlags, siftSource, ...args],
  };
  try {
    const small = join(root, 'ten.csv');
    await writeFile(
      small,
      `email,name\n${Array.from({ length: 10 }, (_, i) => `person${i}@example.com,P${i}`).join('\n')}\n`,
    );
    const list = join(root, 'list.csv');
    await writeMarketingList(list, rows);
    console.log(
      `\nThe single executable (linux-x64 archive ${fmt((await stat(archive)).size / 1024 ** 2)} MB) against the repository's sift`,
    );
    const figures: Record<string, Record<keyof typeof ways, Timed>> = {};
    for (const [label, args, repeat] of [
      ['sift --version', ['--version'], 5],
      ['a 10-row sift clean', ['clean', small, '--restart'], 5],
      [`a ${rows.toLocaleString('en')}-row sift clean`, ['clean', list, '--restart', '--no-cache'], 1],
    ] as const) {
      figures[label] = {} as Record<keyof typeof ways, Timed>;
      for (const [way, command] of Object.entries(ways) as [keyof typeof ways, (args: string[]) => string[]][]) {
        const data = join(root, `${way}-data`);
        await mkdir(data, { recursive: true });
        const env = { ...process.env, SIFT_DATA_DIR: data, INIT_CWD: undefined };
        // One run first, not counted: the repository's compiled-module cache and the OS's file cache filled.
        timed(command([...args]), env);
        const runs = Array.from({ length: repeat }, () => timed(command([...args]), env));
        figures[label][way] = median(runs);
      }
      const { binary, repository } = figures[label];
      console.log(
        `  ${label.padEnd(26)} binary ${fmt(binary.seconds)} s, ${binary.peakRssMb} MB; repository ${fmt(repository.seconds)} s, ` +
          `${repository.peakRssMb} MB: ×${fmt(binary.seconds / repository.seconds)} the time, ×${fmt(binary.peakRssMb / repository.peakRssMb)} the memory`,
      );
    }
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}
