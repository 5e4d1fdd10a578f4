import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';

const entry = new URL('./service-child.ts', import.meta.url).pathname;

export type ChildService = { baseUrl: string; child: ChildProcess; kill(): Promise<void>; peakRssKb(): number };

export async function startChildService(
  config: Record<string, unknown>,
  nodeArgs: string[] = [],
  /** Which parts it runs (a worker has no base URL: `baseUrl` is then 'worker'), and its live engine. */
  parts: { role?: 'all' | 'api' | 'worker'; liveEngine?: 'sandbox' | 'smtp' } = {},
): Promise<ChildService> {
  const child = spawn(
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
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  const baseUrl = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('service child did not start in 15 s')), 15_000);
    let output = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const match = /READY (\S+)/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]!);
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`service child exited with ${code}`));
    });
  });
  return {
    baseUrl,
    child,
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
