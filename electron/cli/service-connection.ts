// Which service a `sift` command talks to: a hosted one by --base-url (or SIFT_BASE_URL) with its key in
// SIFT_API_KEY, or, with neither, Sift's own service started in-process with a sandbox key.
import { ServiceClientError } from '../core/client/client-errors.ts';
import { sharedBudgetFor } from '../core/client/rate-budget.ts';
import { createServiceClient, type ServiceClient } from '../core/client/service-client.ts';
import { ownServiceName, startEmbeddedServiceThread } from '../core/service/embedded-service-thread.ts';
import { threadedServicePartSize } from '../core/jobs/job-settings.ts';
import type { ServiceOnItsWay } from '../core/jobs/list-cleaner.ts';
import { CliExit, exitCodes, type CliIo } from './cli-io.ts';

/**
 * A service being reached: its kind of key is known at once, its client once it is started (Sift's own
 * service starts on its thread when a list first needs it, while the list is read on). `addressesPerBatch`:
 * the part size this service works best with, when it is not the default.
 */
export type Connection = ServiceOnItsWay & { addressesPerBatch?: number; close(): Promise<void> };

/** Checks the settings at once (a usage mistake throws before anything starts); the service itself may still be starting. */
export function connect(baseUrl: string | undefined, io: CliIo, dataDir: string): Connection {
  const apiKey = io.env.SIFT_API_KEY;
  const url = baseUrl ?? io.env.SIFT_BASE_URL;
  if (url === undefined && !apiKey) {
    // On a thread of its own: it checks one part while this thread reads the last. Started only when
    // asked for: a list the verdict cache knows wholly, or a finished one written again, needs none.
    let starting: ReturnType<typeof startEmbeddedServiceThread> | undefined;
    let ready: Promise<ServiceClient> | undefined;
    let closing: Promise<void> | undefined;
    return {
      mode: 'sandbox',
      start: () =>
        (ready ??= (starting = startEmbeddedServiceThread(dataDir)).then((embedded) =>
          createServiceClient({
            baseUrl: embedded.baseUrl,
            apiKey: embedded.apiKey,
            budget: sharedBudgetFor(embedded.apiKey, dataDir),
            serviceName: ownServiceName,
          }),
        )),
      addressesPerBatch: threadedServicePartSize,
      // Closed when the checking is done and again when the command ends: once, if it was started.
      close: async () => {
        if (!starting) return;
        await (closing ??= starting.then(
          (embedded) => embedded.close(),
          () => undefined,
        ));
      },
    };
  }
  if (!apiKey)
    throw new CliExit(
      exitCodes.usage,
      'Set SIFT_API_KEY to the key for that service (keys are never passed as flags).',
    );
  if (url === undefined)
    throw new CliExit(exitCodes.usage, 'With SIFT_API_KEY set, also give --base-url (or SIFT_BASE_URL).');
  try {
    // Other Sift processes on this data folder (the app, another clean) share the key's limits.
    const budget = sharedBudgetFor(apiKey, dataDir);
    const client = createServiceClient({ baseUrl: url, apiKey, budget });
    return { mode: client.mode, start: () => Promise.resolve(client), close: async () => {} };
  } catch (error) {
    if (error instanceof ServiceClientError) throw new CliExit(exitCodes.usage, error.message);
    throw error;
  }
}
