// The main-process side of Sift as plain Node: the handlers, their events and staged uploads,
// assembled once and handed to whichever transport serves the renderer.
import { join } from 'node:path';
import { createAppHandlers } from './app-handlers.ts';
import { createDispatch, type Dispatch } from './host/dispatch.ts';
import { createEventHub, type EventHub } from './host/event-hub.ts';
import { createUploadStore, type UploadStore } from './host/upload-store.ts';
import { appName } from './app-paths.ts';

export type AppRuntime = { dispatch: Dispatch; events: EventHub; uploads: UploadStore; dataDir: string; close(): Promise<void> };

const maxUploadBytes = 4 * 1024 ** 3;

export async function createAppRuntime(options: { dataDir: string; appVersion: string }): Promise<AppRuntime> {
  const events = createEventHub();
  const uploads = createUploadStore(join(options.dataDir, 'uploads'), maxUploadBytes);
  await uploads.clear(); // uploads live for one run only
  const handlers = createAppHandlers({ appName, appVersion: options.appVersion, uploads, emit: events.emit });
  return {
    dispatch: createDispatch(handlers),
    events,
    uploads,
    dataDir: options.dataDir,
    close: () => uploads.clear(),
  };
}
