// `sift` with no command: the app on 127.0.0.1, as a double-clicked single executable starts it. It runs
// until the page's own Quit, and a port that is taken or a data folder that cannot be written is said in
// words, with exit 2.
import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runSift } from '../../support/run-sift.ts';
import { untilPrinted } from '../../support/printed.ts';
import { stoppedWithTest } from '../../support/test-children.ts';

const sift = new URL('../../../electron/cli/sift.ts', import.meta.url).pathname;

describe('sift (the app)', () => {
  it('serves the app until the page quits it, then ends with code 0', async () => {
    const data = mkdtempSync(join(tmpdir(), 'sift-app-'));
    const child = stoppedWithTest(
      spawn(process.execPath, ['--disable-warning=ExperimentalWarning', sift, '--no-open', '--data', data], {
        stdio: ['ignore', 'pipe', 'pipe'],
      }),
    );
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const [, link] = await untilPrinted(
      child,
      /running at (http:\/\/127\.0\.0\.1:\d+\/\?token=\S+)[\s\S]*to stop\./,
      'the link',
    );
    const url = new URL(link!);
    expect(output).toContain('Quit in the app');
    const call = (name: string) =>
      fetch(`${url.origin}/api/calls/${name}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-sift-token': url.searchParams.get('token')! },
        body: '{}',
      }).then((response) => response.json());
    expect(await call('app:getInfo')).toMatchObject({ ok: true, value: { transport: 'web', canQuit: true } });
    expect(await call('app:quit')).toEqual({ ok: true, value: {} });
    const code = await Promise.race([
      exited,
      new Promise((resolve) => setTimeout(() => resolve('still running'), 10_000)),
    ]);
    expect(code).toBe(0);
    expect(output).toContain('Sift is stopping');
  }, 40_000);

  it('says in words that the port is taken', async () => {
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const { port } = blocker.address() as { port: number };
    try {
      const run = await runSift(['--no-open', '--port', String(port)], {
        SIFT_DATA_DIR: mkdtempSync(join(tmpdir(), 'sift-app-')),
      });
      expect(run.code).toBe(2);
      expect(run.stderr).toContain(`port ${port} on 127.0.0.1 is taken`);
      expect(run.stderr).not.toMatch(/\n\s+at /);
    } finally {
      blocker.close();
    }
  }, 30_000);

  it('says in words that the data folder cannot be written', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'sift-app-'));
    writeFileSync(join(folder, 'a-file'), '');
    const data = join(folder, 'a-file', 'Sift');
    const run = await runSift(['app', '--no-open', '--data', data], {});
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`the data folder ${data} cannot be written`);
    expect(run.stderr).toContain('--data DIR');
  }, 30_000);
});
