// `npm run web`, and `sift` with no command: Sift's real main-process code behind the loopback web host,
// for any browser. As the app (`sift` alone, or a double-clicked single executable) it opens the default
// browser at its link and runs until Ctrl-C, its terminal closes, or the page's own Quit.
import { parseArgs } from 'node:util';
import { defaultDataDir } from '../core/app-paths.ts';
import { keepCompiledModules } from '../core/app/compile-cache.ts';
import { appVersion, rendererDir, updatableFile } from '../core/own-files.ts';
import { openInBrowser } from './open-browser.ts';
import { appBrowser, openAppWindow } from './app-window.ts';
import { writeLaunchPage } from './launch-page.ts';
import { join } from 'node:path';
import { allowsPrivateWebhooks } from './cli-options.ts';
import { keepNewFilesPrivate } from '../core/storage/private-folder.ts';
import { openDataFolder } from '../core/storage/store-versions.ts';
import { appStoreFiles } from '../core/app/data-stores.ts';

export type WebHostRun = {
  /** Open the default browser at the page (the app), unless `--no-open` is given. */
  openBrowser?: boolean;
  /** The page may quit the app (it is the app, not a page beside a running terminal command). */
  quittable?: boolean;
};

/** A start that failed for a reason a person can act on, said in words. */
export class WebHostStartError extends Error {}

function startFailure(error: unknown, where: { port: number; dataDir: string }): Error {
  const { code, message } = error as { code?: string; message?: string };
  if (code === 'EADDRINUSE')
    return new WebHostStartError(
      `port ${where.port} on 127.0.0.1 is taken (another program, or another Sift, listens on it): ` +
        'leave --port out to take a free one, or choose another',
    );
  if (['EACCES', 'EPERM', 'EROFS', 'ENOTDIR'].includes(code ?? '') || /readonly|read-only/i.test(message ?? ''))
    return new WebHostStartError(
      `the data folder ${where.dataDir} cannot be written (${code ?? message}): ` +
        'give a folder you may write with --data DIR or SIFT_DATA_DIR',
    );
  return error instanceof Error ? error : new Error(String(error));
}

export async function runWebHost(argv: string[], run: WebHostRun = {}): Promise<void> {
  // Loaded once the compiled-module cache is on, so a second start reads them compiled.
  keepCompiledModules();
  const [{ createAppRuntime }, { startWebHost }, { smtpFlagOptions, smtpSettingsFromFlags }] = await Promise.all([
    import('../core/app/app-runtime.ts'),
    import('../core/web-host/web-host.ts'),
    import('./smtp-flags.ts'),
  ]);
  const { values } = parseArgs({
    args: argv,
    options: {
      port: { type: 'string', default: '0' },
      data: { type: 'string' },
      renderer: { type: 'string' },
      'no-open': { type: 'boolean', default: false },
      // `default` (the default browser, a tab) or a browser's path (its app window); else the first found.
      browser: { type: 'string' },
      // The app's own service, as `sift service --allow-private-webhooks`.
      'allow-private-webhooks': { type: 'boolean', default: false },
      // The live-check flags of `sift service`, over what Settings says (a resolver, a test's SMTP port).
      ...smtpFlagOptions,
    },
  });
  const port = Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new WebHostStartError(`--port must be 0..65535, got "${values.port}"`);
  const smtp = smtpSettingsFromFlags(values);
  const allowPrivateWebhooks = allowsPrivateWebhooks(values['allow-private-webhooks']);
  const dataDir = values.data ?? defaultDataDir();
  // Whichever way the app starts (`sift`, `npm start` without Electron, `npm run web`).
  keepNewFilesPrivate();
  const runtime = await Promise.resolve()
    .then(() => openDataFolder(dataDir, appStoreFiles, appVersion(), (line) => console.log(line)))
    .then(() =>
      createAppRuntime({
        dataDir,
        appVersion: appVersion(),
        service: { allowPrivateWebhooks, ...(Object.keys(smtp).length > 0 ? { smtp } : {}) },
        // Called from the page, so only once the host below is up.
        ...(run.quittable ? { quit: () => void stop() } : {}),
        // The app as `sift` runs it says when a newer single file is out (asked at most once a day).
        ...(run.quittable ? { updates: { env: process.env, file: updatableFile() } } : {}),
      }),
    )
    .catch((error: unknown) => {
      throw startFailure(error, { port, dataDir });
    });
  const host = await startWebHost({ ...runtime, rendererDir: values.renderer ?? rendererDir(), port }).catch(
    async (error: unknown) => {
      await runtime.close();
      throw startFailure(error, { port, dataDir });
    },
  );
  let stopping: Promise<never> | undefined;
  const stop = () =>
    (stopping ??= (async () => {
      console.log('Sift is stopping: lists being checked are left to resume at the next start.');
      await host.close();
      await runtime.close();
      process.exit(0);
    })());
  console.log(`Sift is running at ${host.url}`);
  const opened =
    run.openBrowser && !values['no-open'] ? await openApp(host, dataDir, values.browser, runtime, stop) : false;
  console.log(
    opened === 'window'
      ? "It opened in a window of its own; if it did not, open that link (it carries this run's access token)."
      : opened
        ? "It opened in your browser; if it did not, open that link (it carries this run's access token)."
        : "Open that link in a browser (it carries this run's access token).",
  );
  console.log(run.quittable ? 'Press Ctrl-C, or Quit in the app, to stop.' : 'Press Ctrl-C to stop.');
  // Closing the terminal (SIGHUP) ends it too: nothing is left listening once its window is gone.
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.once(signal, () => void stop());
}

/**
 * Opens the app: an app window where a browser for one is installed (closing it ends Sift as Quit does,
 * unless a list is being checked: then Sift says so, keeps going, and ends when the list is done), else
 * the default browser. The browser's command line carries the path of a page only this account can read,
 * which sends it on to a one-time launch link (launch-page.ts): nothing another account can use.
 */
async function openApp(
  host: { launchLink(onSpent?: () => void): string },
  dataDir: string,
  choice: string | undefined,
  runtime: { busy(): boolean },
  stop: () => Promise<never>,
): Promise<'window' | boolean> {
  const browser = appBrowser(choice);
  const pages = join(dataDir, 'launch-pages');
  const launch = () => writeLaunchPage(pages, (onSpent) => host.launchLink(onSpent));
  const inWindow = browser ? launch() : undefined;
  const window = browser
    ? await openAppWindow(browser, inWindow!.url, join(dataDir, 'app-window'), join(dataDir, 'app-window.log'))
    : undefined;
  if (!window) {
    inWindow?.remove();
    const page = launch();
    const opened = await openInBrowser(page.url);
    if (!opened) page.remove();
    return opened;
  }
  window.once('exit', () => {
    if (!runtime.busy()) return void stop();
    console.log(
      'The window is closed, but a list is still being checked: Sift keeps going and stops when it is done (Ctrl-C stops it now; the list resumes at the next start).',
    );
    const watch = setInterval(() => {
      if (runtime.busy()) return;
      clearInterval(watch);
      void stop();
    }, 2000);
  });
  return 'window';
}

if (import.meta.main) {
  runWebHost(process.argv.slice(2)).catch((error: unknown) => {
    console.error(`sift web: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(2);
  });
}
