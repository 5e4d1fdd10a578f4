// Every file Sift writes for a person is theirs alone: the data folder 0700 and everything in it without
// group or other bits, whichever entry point makes it first (the app's web host, `sift clean`,
// `sift service`), the cleaned files beside the list too; a folder left open is tightened, said once.
// The children start with a loose umask (022), as a person's shell usually has.
import { spawn } from 'node:child_process';
import { lstatSync, mkdirSync, mkdtempSync, readdirSync, writeFileSync, chmodSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { untilPrinted } from '../../support/printed.ts';
import { runSift } from '../../support/run-sift.ts';
import { stoppedWithTest } from '../../support/test-children.ts';

const sift = new URL('../../../electron/cli/sift.ts', import.meta.url).pathname;
let umaskBefore: number;
beforeAll(() => {
  umaskBefore = process.umask(0o022);
});
afterAll(() => void process.umask(umaskBefore));

/** Every path under `dir` (itself included) whose mode lets another user in, with its mode. */
function openToOthers(dir: string): string[] {
  const found: string[] = [];
  const walk = (path: string) => {
    const stat = lstatSync(path);
    if (stat.isSymbolicLink()) return;
    if ((stat.mode & 0o077) !== 0) found.push(`${path} ${(stat.mode & 0o777).toString(8)}`);
    if (stat.isDirectory()) for (const name of readdirSync(path)) walk(join(path, name));
  };
  walk(dir);
  return found;
}

/** Starts a long-running `sift` command, waits for `ready` on its output, then stops it as Ctrl-C does. */
async function runUntil(args: string[], ready: RegExp, env: Record<string, string> = {}) {
  const child = stoppedWithTest(
    spawn(process.execPath, ['--disable-warning=ExperimentalWarning', sift, ...args], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, ...env },
    }),
  );
  const exited = new Promise((resolve) => child.once('exit', resolve));
  await untilPrinted(child, ready, `sift ${args[0]}`, 30_000);
  child.kill('SIGINT');
  await exited;
}

describe('a fresh data folder', () => {
  it('made by the app (its web host) is 0700 with every file 0600', async () => {
    const data = join(mkdtempSync(join(tmpdir(), 'sift-private-')), 'Sift');
    await runUntil(['app', '--no-open', '--data', data], /to stop\./);
    expect(readdirSync(data)).toEqual(expect.arrayContaining(['jobs.sqlite', 'suppression.sqlite']));
    expect(openToOthers(data)).toEqual([]);
  }, 60_000);

  it('made by sift clean, and the cleaned files it writes beside the list, are private', async () => {
    const root = mkdtempSync(join(tmpdir(), 'sift-private-'));
    const data = join(root, 'config', 'Sift');
    const lists = join(root, 'lists');
    mkdirSync(lists, { mode: 0o755 });
    writeFileSync(join(lists, 'people.csv'), 'email\nvalid1@firm.example\ninvalid2@firm.example\n', { mode: 0o644 });
    const run = await runSift(['clean', join(lists, 'people.csv')], { SIFT_DATA_DIR: data });
    expect(run.code, run.stderr).toBe(0);
    expect(readdirSync(data)).toEqual(expect.arrayContaining(['jobs.sqlite', 'suppression.sqlite']));
    expect(openToOthers(data)).toEqual([]);
    const written = readdirSync(lists).filter((name) => name !== 'people.csv');
    expect(written.length).toBeGreaterThan(0);
    for (const name of written) expect(openToOthers(join(lists, name))).toEqual([]);
  }, 60_000);

  it('made by sift service is 0700 with its database 0600', async () => {
    const data = join(mkdtempSync(join(tmpdir(), 'sift-private-')), 'service');
    await runUntil(['service', '--data', data, '--port', '0'], /Press Ctrl-C to stop/);
    expect(readdirSync(data)).toContain('service.sqlite');
    expect(openToOthers(data)).toEqual([]);
  }, 60_000);
});

describe('a data folder left open to others', () => {
  it('is tightened at start and said once', async () => {
    const data = join(mkdtempSync(join(tmpdir(), 'sift-private-')), 'Sift');
    mkdirSync(join(data, 'lists'), { recursive: true });
    writeFileSync(join(data, 'suppression.sqlite'), '');
    for (const [path, mode] of [
      [data, 0o755],
      [join(data, 'lists'), 0o775],
      [join(data, 'suppression.sqlite'), 0o644],
    ] as const)
      chmodSync(path, mode);
    const first = await runSift(['cache', 'stats'], { SIFT_DATA_DIR: data });
    expect(first.code, first.stderr).toBe(0);
    expect(first.stderr).toContain(`Made ${data} private: 3 entries were readable by other users of this computer.`);
    expect(openToOthers(data)).toEqual([]);
    const again = await runSift(['cache', 'stats'], { SIFT_DATA_DIR: data });
    expect(again.stderr).not.toContain('private');
  }, 60_000);
});
