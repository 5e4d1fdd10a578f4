// `npm start` on a first start: Electron's binary is used when installed, fetched with its progress told
// when it is not, and given up on quickly, with the reason, when nothing arrives or the download fails.
import { mkdtemp, mkdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { findElectronBinary } from '../../../electron/cli/launch.ts';

async function electronDir(installer?: string) {
  const dir = await mkdtemp(join(tmpdir(), 'sift-electron-'));
  if (installer !== undefined) await writeFile(join(dir, 'install.js'), installer);
  return dir;
}

describe('findElectronBinary', () => {
  it('finds an installed binary', async () => {
    const dir = await electronDir();
    await mkdir(join(dir, 'dist'));
    await writeFile(join(dir, 'path.txt'), 'electron');
    await writeFile(join(dir, 'dist', 'electron'), '');
    expect(await findElectronBinary(dir)).toEqual({ binary: join(dir, 'dist', 'electron') });
  });

  it('says why when the download fails', async () => {
    const dir = await electronDir(
      "console.error('TypeError: fetch failed\\n    at node:internal/deps/undici:1:1\\n    at async download (x.js:2:3)'); process.exit(1)",
    );
    const lines: string[] = [];
    const found = await findElectronBinary(dir, { report: (line) => lines.push(line) });
    expect(found).toEqual({ binary: null, why: 'the download failed (TypeError: fetch failed)' });
    expect(lines[0]).toContain("Fetching Electron's binary");
  });

  it('gives up when nothing arrives for the quiet limit, however long the installer would wait', async () => {
    const dir = await electronDir('setInterval(() => {}, 1000)');
    // An installer that never ends: only the quiet limit ends the wait (the test's own timeout would otherwise).
    const found = await findElectronBinary(dir, { quietLimitMs: 600, downloadsDir: await electronDir() });
    expect(found.binary).toBeNull();
    expect(found.binary === null && found.why).toContain('nothing arrived for 1 s');
  });

  it('tells how much has arrived while the binary is fetched, and uses it', async () => {
    const downloads = await electronDir();
    // An installer that downloads in pieces (slower than the quiet limit would allow in one wait), then installs.
    const installer = `
      const { appendFileSync, mkdirSync, writeFileSync } = require('node:fs');
      const { join } = require('node:path');
      const folder = join(${JSON.stringify(downloads)}, 'electron-download-abc');
      mkdirSync(folder, { recursive: true });
      let pieces = 0;
      const timer = setInterval(() => {
        appendFileSync(join(folder, 'electron.zip'), Buffer.alloc(512 * 1024));
        if (++pieces === 6) {
          clearInterval(timer);
          mkdirSync(join(__dirname, 'dist'), { recursive: true });
          writeFileSync(join(__dirname, 'dist', 'electron'), '');
          writeFileSync(join(__dirname, 'path.txt'), 'electron');
        }
      }, 300);`;
    const dir = await electronDir(installer);
    await writeFile(join(dir, 'package.json'), '{"type":"commonjs"}');
    const lines: string[] = [];
    const found = await findElectronBinary(dir, {
      quietLimitMs: 1000,
      downloadsDir: downloads,
      report: (line) => lines.push(line),
    });
    expect(found).toEqual({ binary: join(dir, 'dist', 'electron') });
    expect(lines.some((line) => / MB so far/.test(line))).toBe(true);
  });
});
