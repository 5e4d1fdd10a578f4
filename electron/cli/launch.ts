// `npm start`: runs the Electron app. On a first start Electron's binary is fetched, and the person is told
// so at once, with how much has arrived; where nothing arrives for 15 seconds (an offline machine, a
// blocked host), the same app opens in the browser instead, with the reason and how to get the desktop
// version later.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runWebHost } from './web-host-main.ts';

const appDir = fileURLToPath(new URL('../../', import.meta.url));

export type FetchOptions = {
  /** Give up when no byte of the download arrived for this long. */
  quietLimitMs?: number;
  /** Give up after this long whatever arrives. */
  totalLimitMs?: number;
  /** Where Electron's installer downloads to (its `electron-download-*` folders); the system's temporary folder. */
  downloadsDir?: string;
  /** Told what is happening, a line at a time. */
  report?(line: string): void;
};

export type ElectronBinary = { binary: string } | { binary: null; why: string };

/** The installed Electron executable, or null. */
function installedBinary(electronDir: string): string | null {
  const pathFile = join(electronDir, 'path.txt');
  if (!existsSync(pathFile)) return null;
  const binary = join(electronDir, 'dist', readFileSync(pathFile, 'utf8').trim());
  return existsSync(binary) ? binary : null;
}

/** Bytes in the installer's download folders made since `since` (its temporary files grow as they arrive). */
function bytesArrived(downloadsDir: string, since: number): number {
  let total = 0;
  const sizeOf = (path: string): number => {
    const stat = statSync(path, { throwIfNoEntry: false });
    if (!stat) return 0;
    if (!stat.isDirectory()) return stat.size;
    return readdirSync(path).reduce((sum, name) => sum + sizeOf(join(path, name)), 0);
  };
  try {
    for (const name of readdirSync(downloadsDir)) {
      if (!name.startsWith('electron-download-')) continue;
      const folder = join(downloadsDir, name);
      if ((statSync(folder, { throwIfNoEntry: false })?.mtimeMs ?? 0) >= since - 1000) total += sizeOf(folder);
    }
  } catch {
    // A folder gone between listing and reading: it counts as nothing.
  }
  return total;
}

const megabytes = (bytes: number) => `${(bytes / 1024 ** 2).toFixed(1)} MB`;

/** The Electron executable, fetched now if it is missing; or why it cannot be had. Never throws. */
export async function findElectronBinary(electronDir: string, options: FetchOptions = {}): Promise<ElectronBinary> {
  const found = installedBinary(electronDir);
  if (found) return { binary: found };
  const quietLimitMs = options.quietLimitMs ?? 15_000;
  const totalLimitMs = options.totalLimitMs ?? 10 * 60_000;
  const downloadsDir = options.downloadsDir ?? tmpdir();
  const report = options.report ?? (() => {});
  report("Fetching Electron's binary for the desktop app (first start only)…");
  const startedAt = Date.now();
  const installer = spawn(process.execPath, [join(electronDir, 'install.js')], { stdio: ['ignore', 'ignore', 'pipe'] });
  let errors = '';
  installer.stderr.on('data', (chunk: Buffer) => (errors = (errors + chunk.toString()).slice(-2000)));
  const ended = new Promise<number | null>((resolve) => {
    installer.once('exit', (code) => resolve(code));
    installer.once('error', () => resolve(null));
  });
  let arrived = 0;
  let lastArrivalAt = startedAt;
  let shownWait = 0;
  for (;;) {
    const tick = new Promise<'tick'>((resolve) => setTimeout(() => resolve('tick'), 250));
    const code = await Promise.race([ended, tick]);
    if (code !== 'tick') {
      const binary = installedBinary(electronDir);
      if (binary) return { binary };
      // The installer's own words: the error's message, not the stack frames under it.
      const said = errors
        .split('\n')
        .filter((line) => line.trim() !== '' && !/^\s+at /.test(line))
        .at(-1)
        ?.trim();
      return { binary: null, why: `the download failed${said ? ` (${said})` : ''}` };
    }
    const now = Date.now();
    const bytes = bytesArrived(downloadsDir, startedAt);
    if (bytes > arrived) {
      arrived = bytes;
      lastArrivalAt = now;
      report(`  ${megabytes(arrived)} so far…`);
    }
    const waited = Math.floor((now - startedAt) / 5000);
    if (arrived === 0 && waited > shownWait) {
      shownWait = waited;
      report(`  nothing has arrived yet (${waited * 5} s)…`);
    }
    const quiet = now - lastArrivalAt >= quietLimitMs;
    if (quiet || now - startedAt >= totalLimitMs) {
      installer.kill();
      const seconds = Math.round((quiet ? quietLimitMs : totalLimitMs) / 1000);
      return {
        binary: null,
        why: quiet
          ? `nothing arrived for ${seconds} s: this machine may be offline, or the download host blocked`
          : `the download took longer than ${seconds} s`,
      };
    }
  }
}

function electronDir(): string {
  return dirname(createRequire(import.meta.url).resolve('electron/package.json'));
}

if (import.meta.main) {
  const found = await findElectronBinary(electronDir(), { report: (line) => console.log(line) });
  if (found.binary !== null) {
    const child = spawn(found.binary, [appDir], { stdio: 'inherit' });
    child.on('exit', (code) => process.exit(code ?? 0));
  } else {
    console.log(`Electron's binary could not be fetched (${found.why}), so Sift opens in your browser instead.`);
    console.log('For the desktop app later: run `npm start` again on a machine that is online.');
    await runWebHost(process.argv.slice(2));
  }
}
