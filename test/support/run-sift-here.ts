// `sift` in the test's own process (the browser tests' type program leaves the CLI's modules out: they
// import run-sift.ts, which starts it as a process).
import type { SiftRun } from './run-sift.ts';

/**
 * Runs `sift` in this process, through the same `main` the command's process runs (its words, its files and
 * its exit code), without the process's start: about half the CPU of a small `sift clean` (a process of its
 * own loads every module again, in a worker that already has them). What only a process has stays with
 * run-sift.ts: signals and kills, file modes (the process sets its umask), settings read from the process's
 * own environment, the compiled-module cache.
 */
export async function runSiftHere(args: string[], env: Record<string, string | undefined> = {}): Promise<SiftRun> {
  const { main } = await import('../../electron/cli/sift.ts');
  let stdout = '';
  let stderr = '';
  const code = await main(args, {
    out: (text) => void (stdout += text),
    err: (text) => void (stderr += text),
    interactive: false,
    env: { ...process.env, SIFT_API_KEY: undefined, SIFT_BASE_URL: undefined, ...env },
  });
  return { code, signal: null, stdout, stderr };
}
