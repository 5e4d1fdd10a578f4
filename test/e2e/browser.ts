// Which Chromium the browser tests drive. By default the one inside the @sparticuz/chromium package
// (unpacked on first use, so a fresh machine needs no apt and no download); CHROMIUM_PATH picks another.
import chromium from '@sparticuz/chromium';

export async function chromiumExecutablePath(): Promise<string> {
  return process.env.CHROMIUM_PATH || (await chromium.executablePath());
}

/**
 * Our own flags, not the package's defaults: those include --single-process, which breaks a second
 * browser context. The background-networking flags keep Chromium off a network this machine does not have.
 */
export const chromiumArgs = [
  '--headless',
  '--no-sandbox',
  '--no-zygote',
  '--disable-gpu',
  '--disable-dev-shm-usage',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];
