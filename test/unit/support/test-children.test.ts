// A process a test leaves running is stopped before the next test (test/support/test-children.ts, wired into
// every file by temp-per-file.ts), and said on stderr: it must not work on into the next file's tests.
import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { stoppedWithTest } from '../../support/test-children.ts';

describe('a process a test leaves running', () => {
  let pid = 0;
  const said: string[] = [];
  const write = process.stderr.write;

  it('is started by a test that ends without stopping it', () => {
    // What is written to stderr from here to the next test is kept, not shown.
    process.stderr.write = ((chunk: string | Uint8Array) => said.push(String(chunk)) > 0) as typeof write;
    pid = stoppedWithTest(spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'])).pid!;
    expect(() => process.kill(pid, 0)).not.toThrow();
  });

  it('is stopped when that test ended, and said', () => {
    process.stderr.write = write;
    expect(() => process.kill(pid, 0)).toThrow(expect.objectContaining({ code: 'ESRCH' }));
    expect(said.join('')).toMatch(/Stopped what the test left running: .*setInterval/);
  });
});
