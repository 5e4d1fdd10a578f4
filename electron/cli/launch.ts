// `npm start`: runs the Electron app; where Electron's binary cannot be had (an offline machine),
// says so in one line and serves the same app to a browser instead.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runWebHost } from './web-host-main.ts';

const appDir = fileURLToPath(new URL('../../', import.meta.url));

/** The Electron executable if it is installed or can be fetched now, else null. Never throws. */
export function findElectronBinary(electronDir: string): string | null {
  const installed = () => {
    const pathFile = join(electronDir, 'path.txt');
    if (!existsSync(pathFile)) return null;
    const binary = join(electronDir, 'dist', readFileSync(pathFile, 'utf8').trim());
    return existsSync(binary) ? binary : null;
  };
  const found = installed();
  if (found) return found;
  // Electron 45 fetches its binary on first use; try once, quietly, with a time limit.
  spawnSync(process.execPath, [join(electronDir, 'install.js')], { stdio: 'ignore', timeout: 180_000 });
  return installed();
}

function electronDir(): string {
  return dirname(createRequire(import.meta.url).resolve('electron/package.json'));
}

if (import.meta.main) {
  const binary = findElectronBinary(electronDir());
  if (binary) {
    const child = spawn(binary, [appDir], { stdio: 'inherit' });
    child.on('exit', (code) => process.exit(code ?? 0));
  } else {
    console.log("Electron's binary is not available on this machine, so Sift opens in your browser instead:");
    await runWebHost(process.argv.slice(2));
  }
}
