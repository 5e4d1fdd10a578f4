// The thread Sift's own service runs on for `sift clean`: started with the data folder, it answers with
// its base URL and this run's sandbox key, and closes (revoking that key) when asked.
import { parentPort, workerData } from 'node:worker_threads';
import { startEmbeddedService } from './embedded-service.ts';

export type ServiceThreadMessage =
  { kind: 'ready'; baseUrl: string; apiKey: string } | { kind: 'closed' } | { kind: 'failed'; message: string };

const port = parentPort!;
const post = (message: ServiceThreadMessage) => port.postMessage(message);
/** Starts the service and serves the thread that started it (a function, not top-level await: the single
 * executable runs threads as CommonJS scripts). */
async function serve() {
  try {
    const service = await startEmbeddedService((workerData as { appDataDir: string }).appDataDir);
    port.on('message', (message: unknown) => {
      if (message !== 'close') return;
      void service.close().then(
        () => {
          post({ kind: 'closed' });
          port.close();
        },
        (error: unknown) => {
          post({ kind: 'failed', message: String((error as Error).message ?? error) });
          port.close();
        },
      );
    });
    post({ kind: 'ready', baseUrl: service.baseUrl, apiKey: service.apiKey });
  } catch (error) {
    post({ kind: 'failed', message: String((error as Error).message ?? error) });
    port.close();
  }
}

void serve();
