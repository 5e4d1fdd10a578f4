import { spawn } from 'node:child_process';
import { stoppedWithTest } from './test-children.ts';

const sift = new URL('../../electron/cli/sift.ts', import.meta.url).pathname;

export type SiftRun = { code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string };

/**
 * Runs the `sift` CLI as a person would, in its own process; bounded by `timeoutMs`. From the repository's
 * source, or the single executable at `binary` (with `cwd` its folder to run in).
 */
export function runSift(
  args: string[],
  env: Record<string, string | undefined>,
  timeoutMs = 120_000,
  binary?: { path: string; cwd?: string },
  /** The folder it runs in (the binary's `cwd` wins). */
  cwd?: string,
): Promise<SiftRun> & { child: ReturnType<typeof spawn> } {
  const childEnv: NodeJS.ProcessEnv = { ...process.env, SIFT_API_KEY: undefined, SIFT_BASE_URL: undefined, ...env };
  for (const [name, value] of Object.entries(childEnv)) if (value === undefined) delete childEnv[name];
  const [command, commandArgs] = binary
    ? [binary.path, args]
    : [process.execPath, ['--disable-warning=ExperimentalWarning', sift, ...args]];
  const child = stoppedWithTest(
    spawn(command, commandArgs, {
      env: childEnv,
      stdio: ['ignore', 'pipe', 'pipe'],
      ...((binary?.cwd ?? cwd) ? { cwd: binary?.cwd ?? cwd } : {}),
    }),
  );
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const done = new Promise<SiftRun>((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr });
    });
  });
  return Object.assign(done, { child });
}
