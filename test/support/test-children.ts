// The processes tests start, stopped once their test's own cleanup has run, however it ended: a test that fails or times out
// while its `sift` is still running must not leave it working in a folder about to be removed, or running
// into the next file's tests (a worker runs its files one after another in one process).
import type { ChildProcess } from 'node:child_process';

/** Running children, each with whether a test (not a hook around a file's tests) started it. */
const running = new Map<ChildProcess, { byTest: boolean }>();
/** Set by vitest's per-file setup (temp-per-file.ts) around each test; Playwright stops its own. */
let testRunning = false;
export const markTestRunning = (now: boolean) => (testRunning = now);

/** Keeps `child` to be stopped when the test that started it ends (or, from a hook, when its file ends). */
export function stoppedWithTest<Child extends ChildProcess>(child: Child): Child {
  running.set(child, { byTest: testRunning });
  child.once('exit', () => running.delete(child));
  return child;
}

/** Stops what is still running: what tests started (`'tests'`), or everything (`'all'`, when a file ends). */
export async function stopLeftChildren(which: 'tests' | 'all'): Promise<string[]> {
  const left = [...running].filter(([, { byTest }]) => which === 'all' || byTest).map(([child]) => child);
  await Promise.all(
    left.map(
      (child) =>
        new Promise<void>((resolve) => {
          if (child.exitCode !== null || child.signalCode !== null) return resolve();
          child.once('exit', () => resolve());
          child.kill('SIGKILL');
        }),
    ),
  );
  return left.map((child) => child.spawnargs.slice(0, 4).join(' '));
}
