// The one piece of Sift that talks to a verification service over HTTP: every call, with its options
// in one object. It follows the spec where the spec shows something and reads ../wire/assumptions.ts for
// the rest; operations.ts names each call, request-runner.ts sends it and retry-policy.ts decides on retries.
import { randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { open, rename, rm, type FileHandle } from 'node:fs/promises';
import { Readable } from 'node:stream';
import type { ReadableStream as NodeReadableStream } from 'node:stream/web';
import { pipeline } from 'node:stream/promises';
import type { z } from 'zod';
import {
  filesContentType,
  filesNameParam,
  type Account,
  batchObjectSchema,
  type BatchObject,
  type CreateBatchRequest,
  type verdictFlagsSchema,
} from '../wire/assumptions.ts';
import {
  keyModeOf,
  maskKey,
  resultsFilterParam,
  type KeyMode,
  type ResultRow,
  type ResultsPage,
  type batchStatusSchema,
} from '../wire/spec.ts';
import {
  teamCatchAllParams,
  teamOutcomesAfterParam,
  type CatchAllCount,
  type TeamCatchAllPage,
  type TeamOutcome,
  type TeamOutcomesPage,
} from '../wire/team-outcomes.ts';
import { apiRootFrom } from './base-url.ts';
import { ServiceClientError, keyMaskingFor } from './client-errors.ts';
import { realClock, type Clock } from './clock.ts';
import { operations } from './operations.ts';
import { sharedBudgetFor, type RateBudget } from './rate-budget.ts';
import { createRequestRunner } from './request-runner.ts';
import { createRetryPolicy } from './retry-policy.ts';

export type ServiceClientOptions = {
  /** The service's origin, with or without a path prefix and a trailing `/v1` (see base-url.ts). */
  baseUrl: string;
  apiKey: string;
  /** Addresses per batch; longer lists are split into several batches. */
  maxBatchSize?: number;
  /** Pins the response shape (the spec's provisional Service-Version header). */
  serviceVersion?: string;
  /** Retries after a connection failure, a timeout or a 5xx. */
  maxTransientRetries?: number;
  requestTimeoutMs?: number;
  clock?: Clock;
  random?: () => number;
  fetch?: typeof fetch;
  budget?: RateBudget;
  /** What Sift's records call this service (none: its API root); see `ServiceClient.serviceName`. */
  serviceName?: string;
};

export type BatchStatus = z.infer<typeof batchStatusSchema> & Partial<BatchObject>;
/** A result row plus the flags Sift's service adds (assumed; a hosted service may send none). */
type VerifyResult = ResultRow & z.infer<typeof verdictFlagsSchema>;

/** Options every call takes. */
type CallOptions = { signal?: AbortSignal };
/** Options of a call that changes something: a caller that may retry later keeps its own key. */
type WriteOptions = CallOptions & { idempotencyKey?: string };
type ResultsPageOptions = CallOptions & { cursor?: string | null; limit?: number; filter?: string };

/** Every call Sift makes to a verification service (operations.ts has each one's method, path and answer). */
export type ServiceClient = {
  /** The kind of key: a sandbox key's verdicts are demo verdicts. */
  mode: KeyMode;
  /** The key as it may be shown: `svc_live_…abcd`. */
  maskedKey: string;
  /** The service's API root (`{base_url}/v1`). */
  serviceUrl: string;
  /**
   * What Sift learns of the service, and the verdicts it gave, are kept under this name, never under a
   * key: its API root, or a name that outlives the address (Sift's own service, on a new port each start).
   */
  serviceName: string;
  verify(email: string, options?: WriteOptions): Promise<VerifyResult>;
  /** One batch; the caller keeps `idempotencyKey` with its job so a resumed job never creates it twice. */
  createBatch(request: CreateBatchRequest, options?: WriteOptions): Promise<BatchObject>;
  /** A list longer than the maximum batch size, as several batches; part i uses `${idempotencyKey}.${i}`. */
  createBatches(request: CreateBatchRequest, options?: WriteOptions): Promise<BatchObject[]>;
  /** Streams a CSV file from disk as a new batch named `name` (a shortcut, where the service offers it). */
  uploadFile(path: string, options: WriteOptions & { name: string }): Promise<BatchObject>;
  getBatch(id: string, options?: CallOptions): Promise<BatchStatus>;
  getResultsPage(id: string, options?: ResultsPageOptions): Promise<ResultsPage>;
  /** Streams a finished batch's CSV to `destination`, written under a temporary name and renamed when whole. */
  downloadCsv(id: string, destination: string, options?: CallOptions): Promise<void>;
  cancelBatch(id: string, options?: WriteOptions): Promise<BatchObject>;
  getAccount(options?: CallOptions): Promise<Account>;
  /** Sift's own (wire/team-outcomes.ts): outcomes new or undone since they were last sent. */
  shareOutcomes(outcomes: TeamOutcome[], options?: CallOptions): Promise<{ stored: number }>;
  getTeamOutcomes(after: string, options?: CallOptions & { limit?: number }): Promise<TeamOutcomesPage>;
  forgetTeamSource(source: string, options?: CallOptions): Promise<{ forgotten: number }>;
  shareCatchAll(origin: string, domains: CatchAllCount[], options?: CallOptions): Promise<{ stored: number }>;
  getTeamCatchAll(except: string, after: string, options?: CallOptions): Promise<TeamCatchAllPage>;
};

/**
 * A file as a request body, read as fetch pulls it. Not `Readable.toWeb`: when a service answers before
 * the whole body is sent (a 429, say) fetch cancels the body, and toWeb's stream then throws an uncaught
 * "Controller is already closed" from the file's next 'data' event, which ends the process.
 */
function fileBody(path: string): ReadableStream<Uint8Array> {
  let handle: FileHandle | undefined;
  const chunk = new Uint8Array(256 * 1024);
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      handle ??= await open(path, 'r');
      const { bytesRead } = await handle.read(chunk, 0, chunk.length);
      if (bytesRead > 0) controller.enqueue(chunk.slice(0, bytesRead));
      else {
        controller.close();
        await handle.close();
      }
    },
    async cancel() {
      await handle?.close();
    },
  });
}

export function createServiceClient(options: ServiceClientOptions): ServiceClient {
  const mode: KeyMode | null = keyModeOf(options.apiKey);
  if (!mode) {
    throw new ServiceClientError(
      'configuration',
      `The API key must start with svc_live_ or svc_test_ (got ${maskKey(options.apiKey)}).`,
    );
  }
  const root = apiRootFrom(options.baseUrl, mode);
  const keys = keyMaskingFor(options.apiKey);
  const clock = options.clock ?? realClock;
  const maxBatchSize = options.maxBatchSize ?? 100_000;
  const run = createRequestRunner({
    root,
    apiKey: options.apiKey,
    serviceVersion: options.serviceVersion,
    timeoutMs: options.requestTimeoutMs ?? 60_000,
    clock,
    fetch: options.fetch ?? fetch,
    budget: options.budget ?? sharedBudgetFor(options.apiKey),
    decide: createRetryPolicy({
      maxTransientRetries: options.maxTransientRetries ?? 5,
      random: options.random ?? Math.random,
      clock,
      where: root.host,
      keys,
    }),
    // One look at the account; never from the account call itself, which would ask again.
    balanceAfterRefusal: (call) =>
      call === operations.getAccount
        ? Promise.resolve(undefined)
        : run(operations.getAccount, {}).then(
            (account) => account.balance,
            () => undefined,
          ),
  });

  /** A creation answer as a batch object: whole already, or its id with the rest from the status call. */
  const wholeBatch = async (created: { id: string }, signal?: AbortSignal): Promise<BatchObject> => {
    const whole = batchObjectSchema.safeParse(created);
    if (whole.success) return whole.data;
    return { ...(await run(operations.getBatch, { id: created.id, signal })), id: created.id } as BatchObject;
  };

  const client: ServiceClient = {
    mode,
    maskedKey: keys.masked,
    serviceUrl: root.href,
    serviceName: options.serviceName ?? root.href,

    verify(email: string, { idempotencyKey, signal }: WriteOptions = {}): Promise<VerifyResult> {
      return run(operations.verify, { json: { email }, idempotencyKey, signal });
    },

    /** One batch; the caller keeps `idempotencyKey` with its job so a resumed job never creates it twice. */
    createBatch(request: CreateBatchRequest, { idempotencyKey, signal }: WriteOptions = {}): Promise<BatchObject> {
      if (request.emails.length > maxBatchSize) {
        throw new ServiceClientError(
          'bad_request',
          `A batch holds at most ${maxBatchSize} addresses here; use createBatches to split.`,
        );
      }
      return run(operations.createBatch, { json: request, idempotencyKey, signal }).then((created) =>
        wholeBatch(created, signal),
      );
    },

    /** A list longer than the maximum batch size, as several batches; part i uses `${idempotencyKey}.${i}`. */
    async createBatches(
      request: CreateBatchRequest,
      { idempotencyKey = randomUUID(), signal }: WriteOptions = {},
    ): Promise<BatchObject[]> {
      const parts = Math.max(1, Math.ceil(request.emails.length / maxBatchSize));
      const batches: BatchObject[] = [];
      for (let part = 0; part < parts; part += 1) {
        const emails = request.emails.slice(part * maxBatchSize, (part + 1) * maxBatchSize);
        const name = parts === 1 ? request.name : `${request.name ?? 'batch'} (${part + 1}/${parts})`;
        batches.push(
          await client.createBatch({ name, emails }, { idempotencyKey: `${idempotencyKey}.${part}`, signal }),
        );
      }
      return batches;
    },

    /** Streams a CSV file from disk as a new batch named `name`. */
    uploadFile(path: string, { name, idempotencyKey, signal }: WriteOptions & { name: string }): Promise<BatchObject> {
      return run(operations.uploadFile, {
        query: { [filesNameParam]: name },
        body: () => ({ body: fileBody(path), contentType: filesContentType }),
        idempotencyKey,
        signal,
      }).then((created) => wholeBatch(created, signal));
    },

    getBatch(id: string, { signal }: CallOptions = {}): Promise<BatchStatus> {
      return run(operations.getBatch, { id, signal }) as Promise<BatchStatus>;
    },

    getResultsPage(id: string, { cursor, limit, filter, signal }: ResultsPageOptions = {}): Promise<ResultsPage> {
      return run(operations.getResultsPage, {
        id,
        // The cursor goes back exactly as it came: never decoded, never rebuilt.
        query: {
          limit: limit === undefined ? undefined : String(limit),
          cursor: cursor ?? undefined,
          [resultsFilterParam]: filter,
        },
        signal,
      });
    },

    /** Streams a finished batch's CSV to `destination`, written under a temporary name and renamed when whole. */
    async downloadCsv(id: string, destination: string, { signal }: CallOptions = {}): Promise<void> {
      const partial = `${destination}.partial`;
      // Read within the call's try, so a download cut off mid-body is fetched again whole.
      const consume = async (response: Response) => {
        try {
          await pipeline(Readable.fromWeb(response.body! as NodeReadableStream), createWriteStream(partial));
          await rename(partial, destination);
        } catch (error) {
          await rm(partial, { force: true });
          throw error;
        }
      };
      await run(operations.downloadCsv, { id, signal, consume });
    },

    cancelBatch(id: string, { idempotencyKey, signal }: WriteOptions = {}): Promise<BatchObject> {
      return run(operations.cancelBatch, { id, json: {}, idempotencyKey, signal });
    },

    getAccount({ signal }: CallOptions = {}): Promise<Account> {
      return run(operations.getAccount, { signal });
    },

    shareOutcomes: (outcomes, { signal } = {}) => run(operations.shareOutcomes, { json: { outcomes }, signal }),
    getTeamOutcomes: (after, { limit, signal } = {}) =>
      run(operations.getTeamOutcomes, {
        query: { [teamOutcomesAfterParam]: after, limit: limit === undefined ? undefined : String(limit) },
        signal,
      }),
    forgetTeamSource: (source, { signal } = {}) => run(operations.forgetTeamSource, { json: { source }, signal }),
    shareCatchAll: (origin, domains, { signal } = {}) =>
      run(operations.shareCatchAll, { json: { origin, domains }, signal }),
    getTeamCatchAll: (except, after, { signal } = {}) =>
      run(operations.getTeamCatchAll, {
        query: { [teamCatchAllParams.except]: except, [teamCatchAllParams.after]: after },
        signal,
      }),
  };
  return client;
}
