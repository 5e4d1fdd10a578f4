// The contract over Electron IPC, renderer side: a narrow named API built from the contract.
// The renderer never gets ipcRenderer, a generic invoke, or an IPC event object.
import type { IpcRenderer, WebUtils } from 'electron';
import { eventNames, type CallName, type Envelope, type EventName } from '../common/contract.ts';
import { buildSiftApi, type SiftBridge } from '../common/sift-api.ts';
import { AppError } from '../common/app-error.ts';

export function createPreloadBridge(
  ipcRenderer: Pick<IpcRenderer, 'invoke' | 'on' | 'removeListener'>,
  webUtils: Pick<WebUtils, 'getPathForFile'>,
): SiftBridge {
  const api = buildSiftApi(
    (name: CallName, request: unknown) => ipcRenderer.invoke(name, request) as Promise<Envelope<unknown>>,
    (name: EventName, listener: (payload: unknown) => void) => {
      if (!eventNames.includes(name)) throw new Error(`Unknown event ${name}`);
      const wrapped = (_event: unknown, payload: unknown) => listener(payload);
      ipcRenderer.on(name, wrapped);
      return () => void ipcRenderer.removeListener(name, wrapped);
    },
  );
  return {
    ...api,
    files: {
      async stage(file: File) {
        const path = webUtils.getPathForFile(file);
        if (!path) throw new AppError('bad_request', 'Sift could not read where this file is. Please choose it again.');
        return { kind: 'path', path };
      },
      // The page is app://sift/index.html, which serves downloads/ itself.
      downloadLink: async (downloadPath: string) => downloadPath,
    },
  };
}
