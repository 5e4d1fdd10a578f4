// Sift's own service on a thread of its own, for `sift clean` with no account: the service takes and
// checks one part of a list while the client reads the last one, on the machine's other core.
import { startThread } from '../own-files.ts';
import type { ServiceThreadMessage } from './embedded-service-worker.ts';

export type ServiceThread = { baseUrl: string; apiKey: string; close(): Promise<void> };

/** What Sift's records (what a service supports, who gave a cached verdict) call its own service, wherever it listens. */
export const ownServiceName = 'sift:own-service';

export async function startEmbeddedServiceThread(appDataDir: string): Promise<ServiceThread> {
  const worker = startThread(import.meta.url, 'embedded-service-worker', { workerData: { appDataDir } });
  /** The thread's next word; its end, or an error it threw, counts as one (so nothing waits forever). */
  const next = () =>
    new Promise<ServiceThreadMessage>((resolve) => {
      const settle = (message: ServiceThreadMessage) => {
        worker.off('message', settle);
        worker.off('error', onError);
        worker.off('exit', onExit);
        resolve(message);
      };
      const onError = (error: Error) => settle({ kind: 'failed', message: error.message });
      const onExit = (code: number) => settle({ kind: 'failed', message: `its thread ended (${code})` });
      worker.on('message', settle);
      worker.on('error', onError);
      worker.on('exit', onExit);
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
      await worker.terminate();
      if (answer.kind === 'failed') throw new Error(`Sift's own service did not close cleanly: ${answer.message}`);
    },
  };
}
