// How Sift hands a browser it starts the way in, without putting anything another account could use on a
// command line (every account reads every process's command line, /proc/*/cmdline): the one-time launch
// link goes in a small page in the data folder's own app-window/ folder, made 0700 with the page 0600, and
// the browser is given that page's path. The page moves itself on to the link; another account cannot
// read it, and it is removed as soon as the link is used, or after a minute.
import { randomBytes } from 'node:crypto';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

export type LaunchPage = { url: string; remove(): void };

/** Writes the page for `link` in `folder` (made 0700): its file:// URL, and how to remove it. */
export function writeLaunchPage(folder: string, link: (onSpent: () => void) => string): LaunchPage {
  mkdirSync(folder, { recursive: true, mode: 0o700 });
  const path = join(folder, `launch-${randomBytes(9).toString('base64url')}.html`);
  const remove = () => rmSync(path, { force: true });
  const target = link(remove);
  // A meta refresh, no script: the page only sends the browser on, and keeps no history entry of its own.
  const html =
    `<!doctype html><html><head><meta charset="utf-8"><meta name="referrer" content="no-referrer">` +
    `<meta http-equiv="refresh" content="0;url=${target}"><title>Sift</title></head>` +
    `<body>Opening Sift…</body></html>\n`;
  writeFileSync(path, html, { mode: 0o600, flag: 'wx' });
  return { url: pathToFileURL(path).href, remove };
}
