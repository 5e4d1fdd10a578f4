import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { stoppedWithTest } from './test-children.ts';

const entry = new URL('./service-child.ts', import.meta.url).pathname;

export type ChildService = {
  baseUrl: string;
  /** Its id among the service processes on the database. */
  processId: string;
  child: ChildProcess;
  /** What it wrote to stderr, a line each, with when the test heard it (it is passed on to the test's stderr). */
  log: { at: number; line: string }[];
  kill(): Promise<void>;
  peakRssKb(): number;
};

export async function startChildService(
  config: Record<string, unknown>,
  nodeArgs: string[] = [],
  /** Which parts it runs (a worker has no base URL: `baseUrl` is then 'worker'), and its live engine. */
  parts: { role?: 'all' | 'api' | 'worker'; liveEngine?: 'sandbox' | 'smtp' } = {},
): Promise<ChildService> {
  const child = stoppedWithTest(
    spawn(
      process.execPath,
      [
        ...nodeArgs,
        '--disable-warning=ExperimentalWarning',
        entry,
        JSON.stringify(config),
        parts.role ?? 'all',
        parts.liveEngine ?? 'sandbox',
      ],
      {
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    ),
  );
  const log: ChildService['log'] = [];
  let partial = '';
  child.stderr!.on('data', (chunk: Buffer) => {
    process.stderr.write(chunk);
    const lines = (partial + chunk.toString()).split('\n');
    partial = lines.pop()!;
    for (const line of lines) log.push({ at: Date.now(), line });
  });
  const [baseUrl, processId] = await new Promise<[string, string]>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('service child did not start in 15 s')), 15_000);
    let output = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const match = /READY (\S+) (\S+)\n/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve([match[1]!, match[2]!]);
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`service child exited with ${code}`));
    });
  });
  return {
    baseUrl,
    processId,
    child,
    log,
    /** SIGKILL: no cleanup of any kind, as in a crash or a power cut. */
    kill: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGKILL');
      }),
    peakRssKb() {
      const status = readFileSync(`/proc/${child.pid}/status`, 'utf8');
      return Number(/VmHWM:\s+(\d+) kB/.exec(status)![1]);
    },
  };
}
