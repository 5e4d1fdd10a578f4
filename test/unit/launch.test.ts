import { mkdtemp, mkdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { findElectronBinary } from '../../electron/cli/launch.ts';

describe('findElectronBinary', () => {
  it('finds an installed binary', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'sift-electron-'));
    await mkdir(join(dir, 'dist'));
    await writeFile(join(dir, 'path.txt'), 'electron');
    await writeFile(join(dir, 'dist', 'electron'), '');
    expect(findElectronBinary(dir)).toBe(join(dir, 'dist', 'electron'));
  });

  it('answers null when the binary is missing and cannot be fetched', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'sift-electron-'));
    await writeFile(join(dir, 'install.js'), 'process.exit(1)');
    expect(findElectronBinary(dir)).toBeNull();
  });
});
