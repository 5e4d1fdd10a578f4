// The search index's builder thread (search-index.ts): indexes a list's kept row text in its own
// connection, so a million rows are indexed without holding up the app.
import { parentPort, workerData } from 'node:worker_threads';
import { buildSearchIndex } from '../store/list-store-search.ts';

try {
  parentPort!.postMessage({ rows: buildSearchIndex((workerData as { listPath: string }).listPath) });
} catch (error) {
  parentPort!.postMessage({ failed: error instanceof Error ? error.message : String(error) });
}
