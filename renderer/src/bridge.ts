// The renderer's one way to reach main: Electron's preload API when present, else the web host.
import type { SiftBridge } from '../../electron/common/sift-api.ts';
import { createWebBridge } from './web-bridge.ts';

/** Where the web host's page keeps the run's token: this tab's session storage, which no other origin reads. */
const tokenKey = 'sift-token';

/**
 * The run's token: handed over once in the page the printed (or launch) link opened, then kept in this
 * tab's session storage, so a reload still opens and no cookie carries it to other ports of 127.0.0.1.
 */
function webToken(): string {
  const handed = document.querySelector<HTMLMetaElement>('meta[name="sift-token"]')?.content ?? '';
  if (handed) sessionStorage.setItem(tokenKey, handed);
  forgetTokenInAddressBar();
  return handed || (sessionStorage.getItem(tokenKey) ?? '');
}

/** Once the page has the token, the address bar (and so the browser's history) drops the link's part. */
function forgetTokenInAddressBar() {
  const url = new URL(window.location.href);
  if (!url.searchParams.has('token') && !url.searchParams.has('launch')) return;
  url.searchParams.delete('token');
  url.searchParams.delete('launch');
  window.history.replaceState(window.history.state, '', `${url.pathname}${url.search}${url.hash}`);
}

const token = window.sift ? '' : webToken();

/** Whether this page may reach Sift: the desktop app always, a browser tab once it was handed the token. */
export const hasSession = Boolean(window.sift) || token !== '';

export const sift: SiftBridge = window.sift ?? createWebBridge(token);

/**
 * Downloads an exported file, as a click on its link would: the link is asked for at the click (the web
 * host's carries a ticket good for this one download) and followed by a link made for it.
 */
export async function downloadFile(downloadPath: string, fileName: string): Promise<void> {
  const link = document.createElement('a');
  link.href = await sift.files.downloadLink(downloadPath);
  link.download = fileName;
  document.body.append(link);
  link.click();
  link.remove();
}

export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
