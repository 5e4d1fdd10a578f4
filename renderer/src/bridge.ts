// The renderer's one way to reach main: Electron's preload API when present, else the web host.
import type { SiftBridge } from '../../electron/common/sift-api.ts';
import { createWebBridge } from './web-bridge.ts';

function pickBridge(): SiftBridge {
  if (window.sift) return window.sift;
  const token = document.querySelector<HTMLMetaElement>('meta[name="sift-token"]')?.content ?? '';
  return createWebBridge(token);
}

export const sift: SiftBridge = pickBridge();

export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
