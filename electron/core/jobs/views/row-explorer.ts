// Every row of a list with its verdict, a page at a time, for the row explorer. The rows' text is kept in
// the list's file the first time a list is explored (one pass over the input); a filter's or a search's
// matching rows are worked out once (typed arrays, one entry per row) and kept for the next pages.
import type { ExplorerFilter, ExplorerRow } from '../../../common/contract.ts';
import { badSyntaxResult, noAddressResult, suppressedResult } from '../../../common/list-funnel.ts';
import { readCsvRows } from '../../lists/csv-reader.ts';
import type { SearchIndexes } from './search-index.ts';
import { displayNameOf, rowsPerTextChunk, type AddressFacts, type JobRecord, type JobStore } from '../store/index.ts';

const verdictCodes = ['', 'valid', 'invalid', 'catch_all', 'unknown', badSyntaxResult, suppressedResult] as const;
/** The code of a verdict the service named that Sift does not. */
const otherCode = verdictCodes.length;
const flag = { role: 1, disposable: 2, typo: 4 } as const;
/** Jobs whose filters are kept at once. */
const jobsKept = 4;

type Facts = { code: Uint8Array; flags: Uint8Array; firstRow: Int32Array };

export type RowExplorer = {
  /** A page of rows: `offset` counts rows shown under the filter and search, from 0. */
  page(
    job: JobRecord,
    request: { offset: number; limit: number; filter: ExplorerFilter; search: string },
  ): Promise<{ total: number; rows: ExplorerRow[] }>;
  /** Accepts or takes back typo suggestions, for one address or a whole domain; answers how many. */
  acceptSuggestions(job: JobRecord, target: { addressId: number } | { domain: string }, accept: boolean): number;
  /** Drops what was worked out for a job (it is being deleted), and stops building its index. */
  forget(jobId: string): Promise<void>;
  /** Keeps a finished list's row text and builds its search index, ahead of the first search. */
  prepareSearch(job: JobRecord): Promise<void>;
};

/** A search the index answers exactly: 3 characters or more (trigrams), plain ASCII, none of LIKE's wildcards. */
const searchableByIndex = (search: string) =>
  search.length >= 3 && /^[\x20-\x7e]+$/.test(search) && !/[%_]/.test(search);

export function createRowExplorer(store: JobStore, indexes?: SearchIndexes): RowExplorer {
  const kept = new Map<string, { checked: number; facts?: Facts; matches: Map<string, Int32Array> }>();

  function cacheOf(job: JobRecord) {
    let cache = kept.get(job.id);
    // New verdicts (a retry) make what was worked out stale.
    if (!cache || cache.checked !== job.checked) {
      cache = { checked: job.checked, matches: new Map() };
      if (kept.size >= jobsKept) kept.delete(kept.keys().next().value!);
      kept.set(job.id, cache);
    }
    return cache;
  }

  /** Each job's keeping of its rows' text while it runs: pages asked for meanwhile wait for the one pass. */
  const keeping = new Map<string, Promise<void>>();

  function keepRowText(job: JobRecord): Promise<void> {
    if (store.list(job.id).rowText().rowsKept() === job.rowsTotal) {
      indexInBackground(job);
      return Promise.resolve();
    }
    let pass = keeping.get(job.id);
    if (!pass) {
      pass = writeRowText(job)
        .then(() => indexInBackground(job))
        .finally(() => keeping.delete(job.id));
      keeping.set(job.id, pass);
    }
    return pass;
  }

  /** Once a list's text is kept, its search index is built beside it (nothing waits for it). */
  function indexInBackground(job: JobRecord): void {
    if (!indexes || store.list(job.id).search().rowsIndexed() === job.rowsTotal) return;
    void indexes.build(job.id, store.listPath(job.id));
  }

  async function writeRowText(job: JobRecord): Promise<void> {
    const text = store.list(job.id).rowText();
    text.start();
    let chunk: string[][] = [];
    let row = 0;
    await readCsvRows(
      store.rowsPath(job),
      displayNameOf(job),
      (cells) => {
        row += 1;
        chunk.push(cells.slice());
        if (chunk.length === rowsPerTextChunk) {
          text.write(row - chunk.length + 1, chunk);
          chunk = [];
        }
      },
      { delimiter: job.delimiter, skipFirstRow: job.hasHeader },
    );
    if (chunk.length > 0) text.write(row - chunk.length + 1, chunk);
    text.finish(row);
  }

  function factsOf(job: JobRecord): Facts {
    const cache = cacheOf(job);
    if (cache.facts) return cache.facts;
    const text = store.list(job.id).rowText();
    const size = job.precheck ? job.precheck.toCheck + job.precheck.badSyntax + (job.precheck.suppressed ?? 0) + 1 : 1;
    // Ids run from 1 to the number of distinct addresses, which the pre-check counts bound.
    const facts: Facts = { code: new Uint8Array(size), flags: new Uint8Array(size), firstRow: new Int32Array(size) };
    for (const address of text.allFacts()) {
      if (address.id >= size) continue;
      const code = verdictCodes.indexOf((address.result ?? '') as (typeof verdictCodes)[number]);
      facts.code[address.id] = code === -1 ? otherCode : code;
      facts.flags[address.id] =
        (address.role ? flag.role : 0) |
        (address.disposable ? flag.disposable : 0) |
        (address.suggestion ? flag.typo : 0);
      facts.firstRow[address.id] = address.first_row;
    }
    cache.facts = facts;
    return facts;
  }

  /** Whether a row is one a filter shows; verdicts and flags count an address once, on its first row. */
  function shows(filter: ExplorerFilter, facts: Facts, id: number, row: number): boolean {
    if (filter === 'all') return true;
    if (id === 0) return filter === noAddressResult;
    const code = facts.code[id]!;
    if (filter === badSyntaxResult) return code === 5;
    const first = facts.firstRow[id] === row;
    if (filter === 'duplicate') return !first && code !== 5;
    if (!first || code === 5) return false;
    if (filter === 'role' || filter === 'disposable' || filter === 'typo')
      return (facts.flags[id]! & flag[filter]) !== 0;
    if (filter === 'unverified') return code === 0;
    return verdictCodes[code] === filter;
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
    return rowNumbers.map((row) => {
      const address: AddressFacts | undefined = facts.get(idOf.get(row)!);
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
      };
    });
  }

  return {
    /** A page of rows: `offset` counts rows shown under the filter and search, from 0. */
    async page(
      job: JobRecord,
      request: { offset: number; limit: number; filter: ExplorerFilter; search: string },
    ): Promise<{ total: number; rows: ExplorerRow[] }> {
      await keepRowText(job);
      const search = request.search.trim();
      if (request.filter === 'all' && search === '') {
        const first = request.offset + 1;
        const last = Math.min(job.rowsTotal, request.offset + request.limit);
        const numbers = Array.from({ length: Math.max(0, last - first + 1) }, (_, i) => first + i);
        return { total: job.rowsTotal, rows: rowsAt(job, numbers) };
      }
      const matches = matchesOf(job, request.filter, search);
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
      await indexes?.stop(jobId);
    },
  };
}
