// `npm run dist:desktop`: the desktop installers for this computer's platform (AppImage and .deb on Linux,
// .dmg on macOS, the NSIS installer on Windows), into dist/desktop/. electron-builder fetches Electron's
// own binaries for them; where they cannot be fetched, this stops before building and says what it could
// not fetch. SIFT_UPDATE_URL gives the update feed the installed app checks.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { desktopBuildConfig } from './desktop/builder-config.ts';

const root = fileURLToPath(new URL('../', import.meta.url));

/** Where Electron's release files come from: its releases, or the mirror @electron/get is told of. */
export function electronDownloadUrl(version: string, env: NodeJS.ProcessEnv = process.env): string {
  const mirror = env.ELECTRON_MIRROR?.replace(/\/?$/, '/') ?? 'https://github.com/electron/electron/releases/download/';
  return `${mirror}v${version}/SHASUMS256.txt`;
}

/** Null when Electron's release files can be reached, else why not. */
export async function electronReachable(url: string, timeoutMs = 15_000): Promise<string | null> {
  try {
    const response = await fetch(url, { method: 'HEAD', redirect: 'follow', signal: AbortSignal.timeout(timeoutMs) });
    return response.ok ? null : `it answered HTTP ${response.status}`;
  } catch (error) {
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    return cause?.code ?? cause?.message ?? (error as Error).message;
  }
}

if (import.meta.main) {
  const { version } = JSON.parse(readFileSync(join(root, 'node_modules', 'electron', 'package.json'), 'utf8')) as {
    version: string;
  };
  const url = electronDownloadUrl(version);
  let config;
  try {
    config = desktopBuildConfig();
  } catch (error) {
    console.error(`npm run dist:desktop: ${(error as Error).message}`);
    process.exit(2);
  }
  const why = await electronReachable(url);
  if (why) {
    console.error(`npm run dist:desktop: Electron ${version}'s binaries for the installers could not be fetched from
  ${url}
(${why}). The installers need them, so nothing was built. Run it on a machine that can reach Electron's
release downloads (or set ELECTRON_MIRROR to a mirror of them). The single-file downloads and the server
packages do not need them: npm run dist.`);
    process.exit(3);
  }
  const { build, Platform } = await import('electron-builder');
  const platform =
    process.platform === 'darwin' ? Platform.MAC : process.platform === 'win32' ? Platform.WINDOWS : Platform.LINUX;
  const written = await build({ targets: platform.createTarget(), config, projectDir: root, publish: 'never' });
  console.log(`Written to dist/desktop:\n${written.map((file) => `  ${file}`).join('\n')}`);
}
