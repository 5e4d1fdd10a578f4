// Sift's own service on a thread of its own, for `sift clean` with no account: the service takes and
// checks one part of a list while the client reads the last one, on the machine's other core.
import { Worker } from 'node:worker_threads';
import type { ServiceThreadMessage } from './embedded-service-worker.ts';

export type ServiceThread = { baseUrl: string; apiKey: string; close(): Promise<void> };

/** Beside this module: its source where Sift runs from source (the CLI always does). */
const workerUrl = new URL(
  import.meta.url.endsWith('.ts') ? './embedded-service-worker.ts' : './embedded-service-worker.js',
  import.meta.url,
);

export async function startEmbeddedServiceThread(appDataDir: string): Promise<ServiceThread> {
  const worker = new Worker(workerUrl, { workerData: { appDataDir } });
  const next = () =>
    new Promise<ServiceThreadMessage>((resolve, reject) => {
      const onMessage = (message: ServiceThreadMessage) => {
        worker.off('error', reject);
        resolve(message);
      };
      worker.once('message', onMessage);
      worker.once('error', (error) => {
        worker.off('message', onMessage);
        reject(error);
      });
    });
  const ready = await next();
  if (ready.kind !== 'ready') {
    await worker.terminate();
    throw new Error(`Sift's own service could not start: ${ready.kind === 'failed' ? ready.message : ready.kind}`);
  }
  return {
    baseUrl: ready.baseUrl,
    apiKey: ready.apiKey,
    async close() {
      const closed = next();
      worker.postMessage('close');
      const answer = await closed;
      await new Promise((resolve) => worker.once('exit', resolve));
      if (answer.kind === 'failed') throw new Error(`Sift's own service did not close cleanly: ${answer.message}`);
    },
  };
}
