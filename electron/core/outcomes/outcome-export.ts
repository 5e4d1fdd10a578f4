// Outcomes are the person's data: every one of them, with what Sift had said of the address before, into a
// CSV they can take anywhere (`sift outcomes export FILE`), newest first, a page at a time.
import { writeCsvPages } from '../lists/csv-writer.ts';
import type { OutcomeStore } from './outcome-store.ts';

const iso = (time: number | null | undefined) => (time ? new Date(time).toISOString() : '');

const outcomeExportColumns = [
  'email',
  'kind',
  'reason',
  'status',
  'server_words',
  'bounced_at',
  'source',
  'undone_at',
  'sift_said',
  'sift_checked_at',
] as const;

/** Writes every outcome to `path`; answers how many. */
export async function exportOutcomes(store: OutcomeStore, path: string): Promise<number> {
  let written = 0;
  function* pages() {
    for (let before: number | undefined; ;) {
      const rows = store.page({ search: '', limit: 5000, ...(before ? { before } : {}) });
      if (rows.length === 0) return;
      written += rows.length;
      yield rows.map((row) => [
        row.address,
        row.kind,
        row.reason,
        row.status ?? '',
        row.words ?? '',
        iso(row.at),
        row.source,
        iso(row.undoneAt),
        row.checkedResult ?? '',
        iso(row.checkedAt),
      ]);
      before = rows.at(-1)!.id;
    }
  }
  await writeCsvPages(path, outcomeExportColumns, pages());
  return written;
}
