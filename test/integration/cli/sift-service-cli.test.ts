// `sift service` as a person runs it: base URL and, on first start only, a sandbox key that works.
import { spawn } from 'node:child_process';
import { createServer, type AddressInfo } from 'node:net';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { stoppedWithTest } from '../../support/test-children.ts';

const sift = new URL('../../../electron/cli/sift.ts', import.meta.url).pathname;

function runService(
  dataDir: string,
  extra: string[] = [],
  readyWhen = /Press Ctrl-C/,
): Promise<{ output: string; stop(): Promise<void> }> {
  const args = ['--disable-warning=ExperimentalWarning', sift, 'service', '--data', dataDir, ...extra];
  const child = stoppedWithTest(spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] }));
  return new Promise((resolve, reject) => {
    let output = '';
    const timer = setTimeout(() => reject(new Error(`no start in 15 s: ${output}`)), 15_000);
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (readyWhen.test(output)) {
        clearTimeout(timer);
        resolve({
          output,
          stop: () =>
            new Promise((done) => {
              child.once('exit', () => done());
              child.kill('SIGINT');
            }),
        });
      }
    });
    child.once('exit', (code) => reject(new Error(`exited ${code}: ${output}`)));
  });
}

describe('sift service', () => {
  it('prints its base URL and a sandbox key on first start, and no key afterwards', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'sift-cli-service-'));
    const first = await runService(dataDir);
    const baseUrl = /at (http:\/\/127\.0\.0\.1:\d+\/v1)/.exec(first.output)?.[1];
    const key = /(svc_test_[A-Za-z0-9_-]+)/.exec(first.output)?.[1];
    expect(baseUrl).toBeDefined();
    expect(key).toBeDefined();
    const account = await fetch(`${baseUrl}/account`, { headers: { Authorization: `Bearer ${key}` } });
    expect(await account.json()).toMatchObject({ mode: 'sandbox' });
    await first.stop();

    const second = await runService(dataDir);
    expect(second.output).not.toMatch(/svc_test_/);
    await second.stop();
  });

  it('tries each proxy at start and names the one that does not answer, never showing its password', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'sift-cli-service-'));
    // A port nothing listens on: a proxy machine that is not there.
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const { port } = closed.address() as AddressInfo;
    await new Promise((resolve) => closed.close(resolve));
    const proxy = `socks5://sift:hunter2@127.0.0.1:${port}`;
    const running = await runService(dataDir, ['--proxy', proxy], /Proxy socks5:.*\n/);
    await running.stop();
    expect(running.output).toContain(`Live checks go out through socks5://127.0.0.1:${port}`);
    expect(running.output).toContain(`Proxy socks5://127.0.0.1:${port}: could not be reached (ECONNREFUSED)`);
    expect(running.output).not.toContain('hunter2');
  });
});
