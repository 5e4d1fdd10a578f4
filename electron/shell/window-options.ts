import type { BrowserWindowConstructorOptions } from 'electron';
import { windowBackground } from './appearance.ts';

/** The main window's options: the renderer gets no Node, no Electron, and a sandbox. */
export function mainWindowOptions(
  preloadPath: string,
  iconPath: string,
  dark = false,
): BrowserWindowConstructorOptions {
  return {
    width: 1100,
    height: 760,
    minWidth: 720,
    minHeight: 520,
    title: 'Sift',
    icon: iconPath,
    show: false,
    backgroundColor: windowBackground(dark),
    webPreferences: {
      preload: preloadPath,
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
      navigateOnDragDrop: false,
      spellcheck: false,
    },
  };
}
