// Every row of a list with its verdict, a page at a time, for the row explorer. The rows' text is kept in
// the list's file the first time a list is explored (one pass over the input); a filter's or a search's
// matching rows are worked out once (typed arrays, one entry per row) and kept for the next pages.
import type { ExplorerFilter, ExplorerRow } from '../../../common/contract.ts';
import type { ExplorerQuery, ExplorerSort } from '../../../common/list-schemas.ts';
import { badSyntaxResult, noAddressResult } from '../../../common/list-funnel.ts';
import { catchAllEvidenceWords } from '../../../common/reason-words.ts';
import { addressFacts, noScore, shows, storedScoreFacts, type Facts } from './explorer-facts.ts';
import { scoreAddress, type ScoreWeights } from '../../../common/risk-score.ts';
import type { SearchIndexes } from './search-index.ts';
import { writeRowText } from './row-text-pass.ts';
import { displayNameOf, type AddressFacts, type JobRecord, type JobStore } from '../store/index.ts';

/** Jobs whose filters are kept at once. */
const jobsKept = 4;

export type RowExplorer = {
  /** A page of rows: `offset` counts rows shown under the filter and search, from 0. */
  page(job: JobRecord, request: ExplorerQuery): Promise<{ total: number; rows: ExplorerRow[] }>;
  /** Accepts or takes back typo suggestions, for one address or a whole domain; answers how many. */
  acceptSuggestions(job: JobRecord, target: { addressId: number } | { domain: string }, accept: boolean): number;
  /** Drops what was worked out for a job (it is being deleted), and stops building its index. */
  forget(jobId: string): Promise<void>;
  /** Keeps a finished list's row text and builds its search index, ahead of the first search. */
  prepareSearch(job: JobRecord): Promise<void>;
  /** Stops the index builds and waits for the row text passes under way: the store may close after. */
  close(): Promise<void>;
};

/** A search the index answers exactly: 3 characters or more (trigrams), plain ASCII, none of LIKE's wildcards. */
const searchableByIndex = (search: string) =>
  search.length >= 3 && /^[\x20-\x7e]+$/.test(search) && !/[%_]/.test(search);

export function createRowExplorer(
  store: JobStore,
  indexes?: SearchIndexes,
  /** The score's weights in use (Settings'); none: Sift's own table. */
  weights: () => ScoreWeights = () => ({}),
): RowExplorer {
  const kept = new Map<string, { checked: number; weights: string; facts?: Facts; matches: Map<string, Int32Array> }>();

  function cacheOf(job: JobRecord) {
    let cache = kept.get(job.id);
    const weighed = JSON.stringify(weights());
    // New verdicts (a retry), or other weights in Settings, make what was worked out stale.
    if (!cache || cache.checked !== job.checked || cache.weights !== weighed) {
      cache = { checked: job.checked, weights: weighed, matches: new Map() };
      if (kept.size >= jobsKept) kept.delete(kept.keys().next().value!);
      kept.set(job.id, cache);
    }
    return cache;
  }

  /** Each job's keeping of its rows' text while it runs: pages asked for meanwhile wait for the one pass. */
  const keeping = new Map<string, Promise<void>>();
  /** Closing: a build the close stopped is not taken up on this thread, and no new one starts. */
  let closing = false;

  function keepRowText(job: JobRecord): Promise<void> {
    if (store.list(job.id).rowText().rowsKept() === job.rowsTotal) {
      indexInBackground(job);
      return Promise.resolve();
    }
    const under = keeping.get(job.id);
    if (under) return under;
    // Still wanted while it is this job's pass: a list deleted or read again meanwhile is not kept.
    const pass: Promise<void> = keepTextSomewhere(job, () => keeping.get(job.id) === pass).finally(() => {
      if (keeping.get(job.id) === pass) keeping.delete(job.id);
    });
    keeping.set(job.id, pass);
    return pass;
  }

  const sourceOf = (job: JobRecord) => ({
    path: store.rowsPath(job),
    displayName: displayNameOf(job),
    delimiter: job.delimiter,
    hasHeader: job.hasHeader,
    rows: job.rowsTotal,
  });

  /** The row text kept on the index's thread, which then builds the index; on this one where it cannot. */
  async function keepTextSomewhere(job: JobRecord, wanted: () => boolean): Promise<void> {
    // Awaited even with no index thread: `wanted` reads the pass this call makes, which is not there until
    // the call has given it back.
    if (await indexes?.prepare(job.id, store.listPath(job.id), sourceOf(job)).textKept) return;
    // The next start keeps it: the store is about to close. A list forgotten meanwhile has no input left.
    if (closing || !wanted()) return;
    await writeRowText(store.list(job.id).rowText(), sourceOf(job));
    indexInBackground(job);
  }

  /** Once a list's text is kept, its search index is built beside it (nothing waits for it). */
  function indexInBackground(job: JobRecord): void {
    if (!indexes || closing || store.list(job.id).search().rowsIndexed() === job.rowsTotal) return;
    void indexes.prepare(job.id, store.listPath(job.id)).indexed;
  }

  function factsOf(job: JobRecord): Facts {
    const cache = cacheOf(job);
    if (cache.facts) return cache.facts;
    const facts = addressFacts(job, store.list(job.id).rowText(), weights());
    cache.facts = facts;
    return facts;
  }

  /** The rows the search index finds, narrowed by the filter: a lookup, where a pass over every row was. */
  function indexedMatches(job: JobRecord, filter: ExplorerFilter, search: string): Int32Array | undefined {
    const list = store.list(job.id);
    if (!searchableByIndex(search) || list.search().rowsIndexed() !== job.rowsTotal) return undefined;
    const found = list.search().rowsHolding(search);
    if (filter === 'all') return found;
    const facts = factsOf(job);
    const text = list.rowText();
    let ids: { firstRow: number; ids: Int32Array } | undefined;
    return found.filter((row) => {
      if (!ids || row < ids.firstRow || row >= ids.firstRow + ids.ids.length) ids = text.idsAround(row);
      return shows(filter, facts, ids?.ids[row - ids.firstRow] ?? 0, row);
    });
  }

  function matchesOf(job: JobRecord, filter: ExplorerFilter, search: string): Int32Array {
    const cache = cacheOf(job);
    const key = `${filter}\0${search}`;
    const known = cache.matches.get(key) ?? (search === '' ? undefined : indexedMatches(job, filter, search));
    if (known) {
      cache.matches.set(key, known);
      return known;
    }
    const list = store.list(job.id);
    const facts = factsOf(job);
    const wanted = new Uint8Array(job.rowsTotal + 1);
    for (const { firstRow, addressIds } of list.rowChunks()) {
      addressIds.forEach((id, i) => {
        if (shows(filter, facts, id, firstRow + i)) wanted[firstRow + i] = 1;
      });
    }
    if (search !== '') {
      const needle = search.toLowerCase();
      for (const { firstRow, rows } of list.rowText().chunks()) {
        rows.forEach((cells, i) => {
          if (wanted[firstRow + i] && !cells.some((cell) => cell.toLowerCase().includes(needle)))
            wanted[firstRow + i] = 0;
        });
      }
    }
    let count = 0;
    for (let row = 1; row <= job.rowsTotal; row += 1) count += wanted[row]!;
    const matches = new Int32Array(count);
    for (let row = 1, at = 0; row <= job.rowsTotal; row += 1) if (wanted[row]) matches[at++] = row;
    if (cache.matches.size >= 8) cache.matches.clear();
    cache.matches.set(key, matches);
    return matches;
  }

  /** The rows in `sort`'s order: by score (a counting sort, rows keeping file order within a score), unscored last. */
  function sortedMatches(job: JobRecord, filter: ExplorerFilter, search: string, sort: ExplorerSort): Int32Array {
    const all = filter === 'all' && search === '';
    const rows = all ? Int32Array.from({ length: job.rowsTotal }, (_, i) => i + 1) : matchesOf(job, filter, search);
    if (sort === 'row') return rows;
    const cache = cacheOf(job);
    const key = `${filter}\0${search}\0${sort}`;
    const known = cache.matches.get(key);
    if (known) return known;
    const facts = factsOf(job);
    const keys = new Uint8Array(job.rowsTotal + 1).fill(101);
    for (const { firstRow, addressIds } of store.list(job.id).rowChunks()) {
      addressIds.forEach((id, i) => {
        const score = facts.score[id]!;
        if (id !== 0 && score !== noScore) keys[firstRow + i] = sort === 'score_high' ? 100 - score : score;
      });
    }
    const starts = new Int32Array(103);
    for (const row of rows) starts[keys[row]! + 1]! += 1;
    for (let key = 1; key < starts.length; key += 1) starts[key]! += starts[key - 1]!;
    const sorted = new Int32Array(rows.length);
    for (const row of rows) sorted[starts[keys[row]!]!++] = row;
    if (cache.matches.size >= 8) cache.matches.clear();
    cache.matches.set(key, sorted);
    return sorted;
  }

  function rowsAt(job: JobRecord, rowNumbers: readonly number[]): ExplorerRow[] {
    const text = store.list(job.id).rowText();
    let cells: { firstRow: number; rows: string[][] } | undefined;
    let ids: { firstRow: number; ids: Int32Array } | undefined;
    const idOf = new Map<number, number>();
    const cellsOf = new Map<number, string[]>();
    for (const row of rowNumbers) {
      if (!cells || row < cells.firstRow || row >= cells.firstRow + cells.rows.length) cells = text.chunkOf(row);
      if (!ids || row < ids.firstRow || row >= ids.firstRow + ids.ids.length) ids = text.idsAround(row);
      cellsOf.set(row, cells?.rows[row - cells.firstRow] ?? []);
      idOf.set(row, ids?.ids[row - ids.firstRow] ?? 0);
    }
    const facts = text.facts([...new Set(idOf.values())].filter((id) => id !== 0));
    const weighed = weights();
    const list = store.list(job.id);
    const evidenceOf = (address: AddressFacts) => {
      const evidence = address.learned_domain !== null && list.catchAllEvidence.of(address.learned_domain);
      return evidence ? catchAllEvidenceWords(evidence) : null;
    };
    return rowNumbers.map((row) => {
      const address: AddressFacts | undefined = facts.get(idOf.get(row)!);
      const scoreFacts = address && storedScoreFacts(address);
      const scored = scoreFacts && scoreAddress(scoreFacts, weighed);
      const duplicate = !!address && address.first_row !== row && address.result !== badSyntaxResult;
      return {
        row,
        addressId: address?.id ?? 0,
        cells: cellsOf.get(row)!,
        result: address ? (address.result ?? 'unverified') : noAddressResult,
        duplicate,
        role: address?.role === 1,
        disposable: address?.disposable === 1,
        reason: address?.reason ?? null,
        suggestion: address?.suggestion ?? null,
        accepted: address?.accepted === 1,
        cachedAt: address?.cached_at ?? null,
        earlierValidAt: address?.earlier_valid_at ?? null,
        score: scored?.score ?? null,
        scoreReasons: scored?.reasons ?? '',
        catchAllEvidence: address ? evidenceOf(address) : null,
      };
    });
  }

  return {
    /** A page of rows: `offset` counts rows shown under the filter and search, from 0. */
    async page(job: JobRecord, request: ExplorerQuery): Promise<{ total: number; rows: ExplorerRow[] }> {
      await keepRowText(job);
      const search = request.search.trim();
      if (request.filter === 'all' && search === '' && (request.sort ?? 'row') === 'row') {
        const first = request.offset + 1;
        const last = Math.min(job.rowsTotal, request.offset + request.limit);
        const numbers = Array.from({ length: Math.max(0, last - first + 1) }, (_, i) => first + i);
        return { total: job.rowsTotal, rows: rowsAt(job, numbers) };
      }
      const matches = sortedMatches(job, request.filter, search, request.sort ?? 'row');
      const numbers = [...matches.subarray(request.offset, request.offset + request.limit)];
      return { total: matches.length, rows: rowsAt(job, numbers) };
    },

    prepareSearch: (job) => keepRowText(job),

    /** Accepts or takes back typo suggestions, for one address or a whole domain; answers how many. */
    acceptSuggestions(job: JobRecord, target: { addressId: number } | { domain: string }, accept: boolean): number {
      return store.list(job.id).rowText().acceptSuggestions(target, accept);
    },

    async forget(jobId) {
      kept.delete(jobId);
      keeping.delete(jobId);
      await indexes?.stop(jobId);
    },

    async close() {
      closing = true;
      await indexes?.stop();
      await Promise.allSettled([...keeping.values()]);
    },
  };
}
