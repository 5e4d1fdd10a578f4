// The main-process side of Sift as plain Node: the handlers, their events and staged uploads,
// assembled once and handed to whichever transport serves the renderer.
import { join } from 'node:path';
import { createAppHandlers } from './app-handlers.ts';
import { createDispatch, type Dispatch } from './dispatch.ts';
import { createEventHub, type EventHub } from './event-hub.ts';
import { createUploadStore, type UploadStore } from '../web-host/upload-store.ts';
import { appName } from './app-paths.ts';
import { createServiceClient, type ServiceClient } from '../client/service-client.ts';
import { createJobManager } from '../jobs/job-manager.ts';
import { startEmbeddedService, type EmbeddedService } from '../service/embedded-service.ts';
import type { ServiceConfig } from '../service/service-config.ts';

export type AppRuntime = {
  dispatch: Dispatch;
  events: EventHub;
  uploads: UploadStore;
  dataDir: string;
  /** Where exported files are kept, one folder per job. */
  exportsDir: string;
  close(): Promise<void>;
};

const maxUploadBytes = 4 * 1024 ** 3;

export async function createAppRuntime(options: {
  dataDir: string;
  appVersion: string;
  /** Settings for the embedded service (tests slow its pacing down). */
  service?: Partial<ServiceConfig>;
}): Promise<AppRuntime> {
  const events = createEventHub();
  const uploads = createUploadStore(join(options.dataDir, 'uploads'), maxUploadBytes);
  await uploads.clear(); // uploads live for one run only
  // Sift's own service, started on first use: a fresh install works with no account.
  let embedded: Promise<EmbeddedService> | undefined;
  let client: Promise<ServiceClient> | undefined;
  const serviceClient = () =>
    (client ??= (embedded ??= startEmbeddedService(options.dataDir, options.service)).then((service) =>
      createServiceClient({ baseUrl: service.baseUrl, apiKey: service.apiKey }),
    ));
  const jobs = createJobManager({
    dataDir: options.dataDir,
    client: serviceClient,
    emitProgress: (payload) => events.emit('jobs:didProgress', payload),
  });
  jobs.resumeUnfinished();
  const handlers = createAppHandlers({ appName, appVersion: options.appVersion, uploads, jobs, emit: events.emit });
  return {
    dispatch: createDispatch(handlers),
    events,
    uploads,
    dataDir: options.dataDir,
    exportsDir: join(options.dataDir, 'exports'),
    async close() {
      await jobs.close();
      await (await embedded)?.close();
      await uploads.clear();
    },
  };
}
