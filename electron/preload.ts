// Runs sandboxed before the renderer: exposes `window.sift` and nothing else.
import { contextBridge, ipcRenderer, webUtils } from 'electron';
import { createPreloadBridge } from './shell/preload-bridge.ts';

contextBridge.exposeInMainWorld('sift', createPreloadBridge(ipcRenderer, webUtils));
