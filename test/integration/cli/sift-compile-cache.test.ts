// `sift` keeps what Node compiled of its modules in this user's cache folder (compile-cache.ts), for
// itself and for the threads a clean starts, and never in the shared temporary folder.
import { mkdtemp, readdir, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { defaultCacheDir } from '../../../electron/core/app-paths.ts';
import { runSift } from '../../support/run-sift.ts';

/** Every file under `dir`, with its modification time. */
async function filesIn(dir: string): Promise<Map<string, number>> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  const files = new Map<string, number>();
  for (const entry of entries.filter((one) => one.isFile())) {
    const path = join(entry.parentPath, entry.name);
    files.set(path, (await stat(path)).mtimeMs);
  }
  return files;
}

describe('the compiled-module cache', () => {
  it("is kept in the user's cache folder, filled by a clean and read by the next one", async () => {
    const root = await mkdtemp(join(tmpdir(), 'sift-compile-'));
    const input = join(root, 'list.csv');
    await writeFile(input, 'email\nann@example.com\nbob@example.com\n');
    // No NODE_COMPILE_CACHE (the tests set one): the folder is the one a person's `sift` would use.
    const env = {
      NODE_COMPILE_CACHE: undefined,
      XDG_CACHE_HOME: join(root, 'cache'),
      SIFT_DATA_DIR: join(root, 'data'),
    };
    const first = await runSift(['clean', input, '--out', root], env);
    expect(first.code, first.stderr).toBe(0);
    const folder = join(defaultCacheDir({ XDG_CACHE_HOME: join(root, 'cache') }, 'linux'), 'compiled-modules');
    const written = await filesIn(folder);
    // Many dozen modules: the command's, and its threads' (they inherit the folder through NODE_COMPILE_CACHE).
    expect(written.size).toBeGreaterThan(50);

    const again = await runSift(['clean', input, '--out', root, '--restart'], env);
    expect(again.code, again.stderr).toBe(0);
    const after = await filesIn(folder);
    // Read, not made again: the same files, none of them rewritten.
    expect([...after.keys()].sort()).toEqual([...written.keys()].sort());
    for (const [path, modified] of written) expect(after.get(path), path).toBe(modified);
  });

  it('takes an empty NODE_COMPILE_CACHE as unset, leaving nothing in the folder it runs in', async () => {
    const root = await mkdtemp(join(tmpdir(), 'sift-compile-'));
    const input = join(root, 'list.csv');
    await writeFile(input, 'email\nann@example.com\n');
    const env = { NODE_COMPILE_CACHE: '', XDG_CACHE_HOME: join(root, 'cache'), SIFT_DATA_DIR: join(root, 'data') };
    const run = await runSift(['clean', input, '--out', root], env, 120_000, undefined, root);
    expect(run.code, run.stderr).toBe(0);
    // The list and what the clean wrote beside it, the data and the cache folder: no folder of compiled code.
    expect((await readdir(root)).filter((name) => !name.startsWith('list.')).sort()).toEqual(['cache', 'data']);
  });

  it("is in the platform's cache folder, apart from the data", () => {
    expect(defaultCacheDir({ XDG_CACHE_HOME: '/x' }, 'linux')).toBe('/x/Sift');
    expect(defaultCacheDir({ LOCALAPPDATA: 'C:\\Users\\a\\AppData\\Local' }, 'win32')).toMatch(/Local.Sift.Cache$/);
    expect(defaultCacheDir({}, 'darwin')).toMatch(/Library\/Caches\/Sift$/);
  });
});
