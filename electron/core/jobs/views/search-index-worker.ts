// The search index's builder thread (search-index.ts): keeps a list's row text from its input if asked
// (and not kept yet), says so, then indexes it, all on a connection of its own, so a million rows are
// made searchable without holding up the app or the list being checked.
import { parentPort, workerData } from 'node:worker_threads';
import { openDatabase } from '../../storage/sqlite.ts';
import { buildSearchIndex } from '../store/list-store-search.ts';
import { rowTextStore } from '../store/list-store-rows.ts';
import { writeRowText, type RowTextSource } from './row-text-pass.ts';

const { listPath, source } = workerData as { listPath: string; source?: RowTextSource & { rows: number } };

async function keepText(from: RowTextSource & { rows: number }): Promise<void> {
  const db = openDatabase(listPath);
  try {
    const text = rowTextStore(db);
    if (text.rowsKept() !== from.rows) await writeRowText(text, from);
  } finally {
    db.close();
  }
}

// No top-level await: the single executable bundles each thread as CommonJS.
void (async () => {
  try {
    if (source) {
      await keepText(source);
      parentPort!.postMessage({ textKept: true });
    }
    parentPort!.postMessage({ rows: buildSearchIndex(listPath) });
  } catch (error) {
    parentPort!.postMessage({ failed: error instanceof Error ? error.message : String(error) });
  }
})();
