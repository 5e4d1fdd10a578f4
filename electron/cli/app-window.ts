// The app in a window of its own: Chrome's, Edge's or Chromium's app mode (no tabs, no address bar, its
// own taskbar entry), with a browser profile of its own in Sift's data folder, so it never touches the
// person's own browser profile and its process ends when its window closes. Where none of those browsers
// is installed, or `--browser default` says so, the default browser opens the page instead.
import { spawn, type ChildProcess } from 'node:child_process';
import { accessSync, closeSync, constants, openSync } from 'node:fs';
import { delimiter, join } from 'node:path';

/** Where app-mode browsers are, per platform, in the order tried. */
function candidates(platform: NodeJS.Platform, env: NodeJS.ProcessEnv): string[] {
  if (platform === 'darwin') {
    return ['Google Chrome', 'Microsoft Edge', 'Chromium'].map(
      (name) => `/Applications/${name}.app/Contents/MacOS/${name}`,
    );
  }
  if (platform === 'win32') {
    const roots = [env.LOCALAPPDATA, env.PROGRAMFILES, env['PROGRAMFILES(X86)']].filter(Boolean) as string[];
    return [
      ...roots.map((root) => join(root, 'Google', 'Chrome', 'Application', 'chrome.exe')),
      ...roots.map((root) => join(root, 'Microsoft', 'Edge', 'Application', 'msedge.exe')),
    ];
  }
  const names = [
    'google-chrome',
    'google-chrome-stable',
    'chromium',
    'chromium-browser',
    'microsoft-edge',
    'microsoft-edge-stable',
  ];
  const folders = (env.PATH ?? '').split(delimiter).filter(Boolean);
  return names.flatMap((name) => folders.map((folder) => join(folder, name)));
}

const runnable = (path: string) => {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
};

/** The browser to open an app window with: the one `--browser` names, else the first installed. */
export function appBrowser(
  choice: string | undefined,
  platform: NodeJS.Platform = process.platform,
  env: NodeJS.ProcessEnv = process.env,
): string | undefined {
  if (choice === 'default') return undefined;
  if (choice !== undefined) return choice;
  return candidates(platform, env).find(runnable);
}

/**
 * Opens `url` in an app window of `browser`, with its own profile in `profileDir`; the process, or undefined
 * if it could not start. What the browser prints goes to `logFile` (made again at each start, this account's
 * alone), so a window that does not show can be asked about.
 */
export function openAppWindow(
  browser: string,
  url: string,
  profileDir: string,
  logFile: string,
): Promise<ChildProcess | undefined> {
  const log = openSync(logFile, 'w', 0o600);
  return new Promise((resolve) => {
    const child = spawn(
      browser,
      [
        `--app=${url}`,
        `--user-data-dir=${profileDir}`,
        '--no-first-run',
        '--no-default-browser-check',
        // The window shows Sift's own page on this computer: nothing for the browser to fetch or sync from
        // the internet meanwhile (on a closed network those calls fail, many at a time, at every start).
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--class=Sift',
        '--window-size=1280,860',
        // Chromium will not start as root with its sandbox (a root desktop, or a CI machine): only then.
        ...(process.getuid?.() === 0 ? ['--no-sandbox'] : []),
      ],
      { stdio: ['ignore', log, log] },
    );
    closeSync(log);
    child.once('error', () => resolve(undefined));
    child.once('spawn', () => resolve(child));
  });
}
