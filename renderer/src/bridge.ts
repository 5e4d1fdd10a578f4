// The renderer's one way to reach main: Electron's preload API when present, else the web host.
import type { SiftBridge } from '../../electron/common/sift-api.ts';
import { createWebBridge } from './web-bridge.ts';

function pickBridge(): SiftBridge {
  if (window.sift) return window.sift;
  const token = document.querySelector<HTMLMetaElement>('meta[name="sift-token"]')?.content ?? '';
  forgetTokenInAddressBar();
  return createWebBridge(token);
}

/**
 * The printed link carries the run's token; once the page has it, the address bar (and so the browser's
 * history) drops it. The page's session cookie opens the page again on a reload.
 */
function forgetTokenInAddressBar() {
  const url = new URL(window.location.href);
  if (!url.searchParams.has('token') && !url.searchParams.has('launch')) return;
  url.searchParams.delete('token');
  url.searchParams.delete('launch');
  window.history.replaceState(window.history.state, '', `${url.pathname}${url.search}${url.hash}`);
}

export const sift: SiftBridge = pickBridge();

export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
