// What a job's list file holds and what may be asked of it, declared once: the store modules implement
// these (list-store.ts and the query modules beside it), everything else reads and writes a list through
// them and never through its database handle.
import type { CatchAllLearned } from '../../../common/risk-score.ts';
import type { CatchAllEvidenceStore } from './list-store-evidence.ts';
import type { CacheHit } from '../../cache/cache-lookup.ts';
import type { RuleAction } from '../../../common/domain-rules.ts';
import type { ScoreGroup, VerdictChanges } from '../../../common/list-schemas.ts';

/**
 * [result, flags, reason, suggestion, cached on], as SQLite gives them; flags packs billed, role,
 * disposable, accepted, cached, free and the mail hosts' provider (`verdictFlag`); `cached on` is the day (YYYY-MM-DD) a verdict reused
 * from the cache was got. Reading these is a good part of an export.
 */
export type VerdictColumns = [string | null, number, string | null, string | null, string | null];

/** The bits of `VerdictColumns`' flags. */
export const verdictFlag = {
  billed: 1,
  role: 2,
  disposable: 4,
  accepted: 8,
  cached: 16,
  /** The domain is a free mailbox provider's (score-columns.ts). */
  free: 32,
  /** The service found the domain's mail hosts are Google's, or Microsoft's. */
  google: 64,
  microsoft: 128,
  /** Valid at an earlier check too old to reuse (the verdict cache). */
  validEarlier: 256,
  /** Sends to the domain's catch-all addresses bounced often, or seldom (score-columns.ts). */
  catchAllBounces: 512,
  catchAllDelivers: 1024,
} as const;
// verdict-chunks.ts packs these in 15 bits beside its own; a flag past them would be lost on the way.

/** Rows per packed chunk of address ids. */
export const rowsPerChunk = 4096;

export type NewAddress = {
  id: number;
  key: string;
  address: string;
  firstRow: number;
  /** False for bad syntax and suppressed addresses: settled here, never sent. */
  sendable: boolean;
  /** On the do-not-mail list, by its address or its domain: settled here as `suppressed`. */
  suppressed?: 'address' | 'domain';
  /** Decided by a person's rule for its domain (domain-rules.ts): settled here, never sent. */
  ruled?: RuleAction;
  role: boolean;
  disposable: boolean;
  suggestion: string | null;
};

export type AddressRecord = NewAddress & {
  result: string | null;
  billed: boolean;
  reason: string | null;
  /** When the verdict was first got, where it was reused from the verdict cache; null otherwise. */
  cachedAt: number | null;
};

/** A verdict from the verdict cache, for an address of the list being imported (by its id). */

export type VerdictRow = {
  id: number;
  result: string;
  billed: boolean;
  reason: string | null;
  /** Who runs the address's mail hosts, when the service found out (Sift's live engine does). */
  provider?: string | null;
  /**
   * The row was matched to the address the part was sent, in the order sent, among those without a verdict
   * from the import: recording it needs no look at the address's row.
   */
  sentPending?: boolean;
};

/** A list as one CSV upload (POST /files, a shortcut), or the spec's POST /batches with the addresses as JSON. */
export type PartRoute = 'files' | 'batches';

export type Part = {
  part: number;
  idempotencyKey: string;
  firstId: number;
  lastId: number;
  addresses: number;
  batchId: string | null;
  status: string;
  cursor: string | null;
  skip: number;
  resultsIn: boolean;
  /** A part made to check again what a canceled or failed batch left: it sends only addresses without a verdict. */
  pendingOnly: boolean;
  /** How it goes to the service, chosen (and kept) before it is first sent; null until then. */
  via: PartRoute | null;
};

/** Sift's own part status for a part whose unchecked addresses were handed to a newer part. */
export const supersededStatus = 'superseded';
/** Sift's own part status for a part never sent, whose addresses went into smaller parts instead. */
export const splitStatus = 'split';

/** A part that stands for its addresses: neither handed on after it ended nor split before it was sent. */
export const isActivePart = (part: Pick<Part, 'status'>) =>
  part.status !== supersededStatus && part.status !== splitStatus;

/** The parts the list is sent in (list-store-parts.ts). */
export type ListParts = {
  parts(): Part[];
  /** The part's addresses to send, in id order, a range of ids at a time. */
  sendableAddresses(part: Pick<Part, 'firstId' | 'lastId' | 'pendingOnly'>): Generator<string[]>;
  /**
   * The ids and keys of the addresses a part was sent with, in the order sent, a range of ids at a time,
   * of those without a verdict from the import: as they were when it was first sent (a retried part, or
   * one an older Sift began, may no longer match them all).
   */
  sentKeys(part: Pick<Part, 'firstId' | 'lastId'>): Generator<[id: number, key: string][]>;
  /** Plans the parts once (each with its Idempotency-Key), at most `limit` addresses in all; answers every part. */
  planParts(perPart: number, idempotencyKeyFor: (part: number) => string, limit?: number): Part[];
  /** Sets ended parts aside and plans what they left unchecked again; answers how many will be sent. */
  planRetry(perPart: number, idempotencyKeyFor: (part: number) => string): number;
  /** A part refused for its size, not sent: its addresses go into parts of `perPart`. */
  splitPart(part: Part, perPart: number, idempotencyKeyFor: (part: number) => string): void;
  /** Canceled while sending: the parts not sent yet are set aside. */
  setAsideUnsent(): void;
  setPartRoute(part: number, via: PartRoute, idempotencyKey?: string): void;
  setPartBatch(part: number, batchId: string): void;
  setPartStatus(part: number, status: string): void;
};

/** How an import adds to a list (list-store-append.ts; the import's writer thread uses it alone). */
export type ListAppender = {
  beginBulk(): void;
  endBulk(): void;
  /** Appends addresses (with the verdicts the cache had for some) and a chunk of rows, in one transaction. */
  appendImport(
    addresses: readonly NewAddress[],
    firstRow: number,
    addressIds: Int32Array,
    /** The cache's verdicts, by place in `addresses`. */
    hits?: readonly (CacheHit | undefined)[],
  ): void;
};

/** What an export reads (list-store-verdicts.ts; the export's reader thread uses it alone). */
export type ListVerdictReads = {
  /** Rows' address ids chunk by chunk, in row order. */
  rowChunks(): Generator<{ firstRow: number; addressIds: Int32Array }>;
  verdictsBetween(firstId: number, lastId: number): VerdictColumns[];
};

/** What the row explorer needs of an address on a page. */
export type AddressFacts = {
  id: number;
  first_row: number;
  result: string | null;
  role: number;
  disposable: number;
  reason: string | null;
  suggestion: string | null;
  accepted: number;
  /** When a verdict reused from the verdict cache was got (ms); null: checked for this list, or not yet. */
  cached_at: number | null;
  /** 1: the domain is a free mailbox provider's. */
  free: number;
  /** Who runs the domain's mail hosts, where the service said. */
  provider: string | null;
  /** When it was valid at an earlier check too old to reuse (ms); null: no such check. */
  earlier_valid_at: number | null;
  /** What sends to its catch-all domain came to, when the list was checked; and that domain. */
  learned: CatchAllLearned;
  learned_domain: string | null;
};

/** The rows' own text, kept the first time a list is explored, and the addresses behind a page (list-store-rows.ts). */
export type RowTextStore = {
  /** How many rows of text are kept; -1 when the text was never (or not completely) kept. */
  rowsKept(): number;
  start(): void;
  /** Keeps chunks of rows' text, in one transaction (one flush to disk for many chunks). */
  write(chunks: readonly { firstRow: number; rows: string[][] }[]): void;
  finish(rows: number): void;
  chunkOf(row: number): { firstRow: number; rows: string[][] } | undefined;
  chunks(): Generator<{ firstRow: number; rows: string[][] }>;
  idsAround(row: number): { firstRow: number; ids: Int32Array } | undefined;
  facts(ids: readonly number[]): Map<number, AddressFacts>;
  /** The verdicts of the addresses the list holds among `keys` (normal forms), in one pass over the list. */
  resultsOf(keys: readonly string[]): Map<string, string | null>;
  /** Accepts (or takes back) the suggested correction of one address or a whole domain; answers how many. */
  acceptSuggestions(target: { addressId: number } | { domain: string }, accept: boolean): number;
  allFacts(): Generator<AddressFacts>;
};

/** A job's list file: its addresses, rows, parts, verdicts and running totals. */
export type ListStore = ListParts &
  ListAppender &
  ListVerdictReads & {
    close(): void;
    /** Drops whatever an earlier, interrupted import left. Nothing has been sent for it. */
    clear(): void;
    /** The stored keys of many addresses in one query; the answer may hold more. */
    keysOf(ids: readonly number[]): Map<number, string>;
    keyOf(id: number): string | undefined;
    /** Every (id, key), in id order. */
    keys(): Generator<{ id: number; key: string }>;
    addressesBetween(firstId: number, lastId: number): AddressRecord[];
    address(id: number): AddressRecord | undefined;
    /** Verdicts and where reading stopped, in one transaction; answers how many addresses got their first verdict. */
    recordResults(
      part: number,
      rows: readonly VerdictRow[],
      position: { cursor?: string | null; skip?: number; resultsIn?: boolean; endStatus?: string },
    ): number;
    /** Every running total, by name (`checked`, `billed`, `result:<verdict>` …). */
    counters(): Map<string, number>;
    /** What changed since the last check (the verdict cache's count), kept with the list. */
    recordChanges(changes: VerdictChanges): void;
    /** How many sent addresses have their verdict. */
    checkedCount(): number;
    /** What sends to catch-all domains had come to when the list was checked. */
    catchAllEvidence: CatchAllEvidenceStore;
    /** The rows' own text and the explorer's reads. */
    rowText(): RowTextStore;
    /** The rows' search index (built by search-index.ts once the row text is kept). */
    search(): { rowsIndexed(): number; rowsHolding(piece: string): Int32Array };
    /** Addresses to check per domain, the most used first. */
    domainCounts(limit: number): { domain: string; count: number }[];
    /** Addresses to check per mailbox provider (found by the service, else named by the domain). */
    providerCounts(providers: Record<string, readonly string[]>): { provider: string; count: number }[];
    /** Unknown addresses per reason, the most first. */
    unknownReasonCounts(): { reason: string; count: number }[];
    /** Addresses to check and those a rule decided, grouped by what scores and keeps them. */
    scoreGroups(): ScoreGroup[];
  };
