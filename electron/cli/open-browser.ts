// Opens a link in the person's default browser, as a double-clicked `sift` does with its own page. It
// never fails the app: where no browser opens (a server, a terminal with no desktop) the link is printed.
import { spawn } from 'node:child_process';

/** The system's own opener for a URL, per platform. */
export function browserOpener(url: string, platform: NodeJS.Platform = process.platform): [string, string[]] {
  // rundll32 takes the URL as one argument; `cmd /c start` would read the token's characters as its own.
  if (platform === 'win32') return ['rundll32', ['url.dll,FileProtocolHandler', url]];
  if (platform === 'darwin') return ['open', [url]];
  return ['xdg-open', [url]];
}

/** Starts the opener and lets it go; true when it could be started. */
export function openInBrowser(url: string): Promise<boolean> {
  const [command, args] = browserOpener(url);
  return new Promise((resolve) => {
    try {
      const child = spawn(command, args, { stdio: 'ignore', detached: true });
      child.once('error', () => resolve(false));
      child.once('spawn', () => {
        child.unref();
        resolve(true);
      });
    } catch {
      resolve(false);
    }
  });
}
