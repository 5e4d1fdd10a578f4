// The one piece of Sift that talks to a verification service over HTTP. It follows the spec where the
// spec shows something and reads ../wire/assumptions.ts for the rest. The key travels only in the
// Authorization header and is never written into a URL, a log line or an error.
import { randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { rename, rm } from 'node:fs/promises';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { z } from 'zod';
import {
  accountSchema,
  assumedErrors,
  batchObjectSchema,
  cancelPath,
  filesContentType,
  filesNameParam,
  resultsCsvPath,
  verdictFlagsSchema,
  type Account,
  type BatchObject,
  type CreateBatchRequest,
} from '../wire/assumptions.ts';
import {
  batchStatusSchema,
  errorBodySchema,
  headers as specHeaders,
  keyModeOf,
  maskKey,
  maxTries,
  paths,
  resultRowSchema,
  resultsFilterParam,
  resultsPageSchema,
  type KeyMode,
  type ResultRow,
  type ResultsPage,
} from '../wire/spec.ts';
import { ServiceClientError } from './client-errors.ts';
import { realClock, type Clock } from './clock.ts';
import { sharedBudgetFor, type Operation, type RateBudget } from './rate-budget.ts';
import { backoffWaitMs, parseRetryAfter, retryAfterWaitMs } from './retry-policy.ts';

export type ServiceClientOptions = {
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
};

export type BatchStatus = z.infer<typeof batchStatusSchema> & Partial<BatchObject>;
/** A result row plus the flags Sift's service adds (assumed; a hosted service may send none). */
export type VerifyResult = ResultRow & z.infer<typeof verdictFlagsSchema>;

type RequestBody = NonNullable<RequestInit['body']>;

type RequestSpec<T> = {
  operation: Operation;
  method: 'GET' | 'POST';
  /** How the call is named in errors: method and path template, never ids or keys. */
  name: string;
  path: string;
  query?: Record<string, string | undefined>;
  json?: unknown;
  /** A body made afresh for each try (a file stream cannot be sent twice). */
  body?: () => { body: RequestBody; contentType: string };
  idempotencyKey?: string;
  read(response: Response): Promise<T>;
};

export type ServiceClient = ReturnType<typeof createServiceClient>;

export function createServiceClient(options: ServiceClientOptions) {
  const mode: KeyMode | null = keyModeOf(options.apiKey);
  if (!mode) {
    throw new ServiceClientError(
      'configuration',
      `The API key must start with svc_live_ or svc_test_ (got ${maskKey(options.apiKey)}).`,
    );
  }
  let base: URL;
  try {
    base = new URL(options.baseUrl.replace(/\/+$/, ''));
    if (base.protocol !== 'http:' && base.protocol !== 'https:') throw new Error('protocol');
  } catch {
    throw new ServiceClientError('configuration', 'The service base URL must be an http or https URL.');
  }
  const apiKey = options.apiKey;
  const masked = maskKey(apiKey);
  const clock = options.clock ?? realClock;
  const random = options.random ?? Math.random;
  const fetchImpl = options.fetch ?? fetch;
  const budget = options.budget ?? sharedBudgetFor(apiKey);
  const maxTransientRetries = options.maxTransientRetries ?? 5;
  const timeoutMs = options.requestTimeoutMs ?? 60_000;
  const maxBatchSize = options.maxBatchSize ?? 100_000;

  /** Any text from outside that could carry the key gets it masked. */
  const redact = (text: string) =>
    text
      .split(apiKey)
      .join(masked)
      .replace(/svc_(live|test)_[A-Za-z0-9_-]{8,}/g, (key) => maskKey(key));

  function urlFor(path: string, query: Record<string, string | undefined> = {}): string {
    const url = new URL(`${base.pathname}${path}`, base);
    for (const [name, value] of Object.entries(query)) if (value !== undefined) url.searchParams.set(name, value);
    return url.href;
  }

  async function errorFrom(response: Response, name: string): Promise<ServiceClientError> {
    const text = await response.text().catch(() => '');
    let type: string | undefined;
    let code: string | undefined;
    let message = '';
    try {
      const parsed = errorBodySchema.safeParse(JSON.parse(text));
      if (parsed.success) ({ type, code, message = '' } = parsed.data.error);
    } catch {
      // not JSON: the status alone says what happened
    }
    const said = redact(
      `${name} answered ${response.status}${code ? ` (${code})` : ''}${message ? `: ${message}` : ''}`,
    );
    const details = { status: response.status, code: code ?? type };
    switch (response.status) {
      case 401:
        return new ServiceClientError(
          'authentication',
          `The service refused the key ${masked}: it is wrong or revoked. ${said}`,
          details,
        );
      case 402: {
        const balance = await currentBalance();
        return new ServiceClientError(
          'payment',
          `Out of credits${balance === undefined ? '' : ` (balance ${balance})`}. ${said}`,
          { ...details, balance },
        );
      }
      case 404:
        return new ServiceClientError('not_found', said, details);
      case 409:
        return new ServiceClientError('conflict', said, details);
      default:
        if (code === assumedErrors.cursorExpired || code === 'results_expired' || response.status === 410) {
          return new ServiceClientError(
            'cursor_expired',
            `The batch's results are past their retention window. ${said}`,
            details,
          );
        }
        return new ServiceClientError('bad_request', said, details);
    }
  }

  async function currentBalance(): Promise<number | undefined> {
    try {
      return (await call(accountRequest())).balance;
    } catch {
      return undefined;
    }
  }

  async function readJson<S extends z.ZodType>(response: Response, name: string, schema: S): Promise<z.infer<S>> {
    const text = await response.text();
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      throw new ServiceClientError('protocol', `${name} answered ${response.status} with a body that is not JSON.`, {
        status: response.status,
      });
    }
    const parsed = schema.safeParse(value);
    if (!parsed.success) {
      throw new ServiceClientError(
        'protocol',
        `${name} answered ${response.status} with JSON that is not the expected shape.`,
        { status: response.status },
      );
    }
    return parsed.data;
  }

  async function call<T>(spec: RequestSpec<T>, signal?: AbortSignal): Promise<T> {
    let rateLimitedTries = 0;
    let transientRetries = 0;
    for (;;) {
      await budget.acquire(spec.operation, clock, signal);
      const requestHeaders: Record<string, string> = {
        [specHeaders.authorization]: `Bearer ${apiKey}`,
        Accept: 'application/json',
      };
      if (options.serviceVersion) requestHeaders[specHeaders.serviceVersion] = options.serviceVersion;
      if (spec.idempotencyKey) requestHeaders[specHeaders.idempotencyKey] = spec.idempotencyKey;
      let body: RequestBody | undefined;
      if (spec.json !== undefined) {
        body = JSON.stringify(spec.json);
        requestHeaders['Content-Type'] = 'application/json';
      } else if (spec.body) {
        const made = spec.body();
        body = made.body;
        requestHeaders['Content-Type'] = made.contentType;
      }
      let response: Response;
      try {
        const timeout = AbortSignal.timeout(timeoutMs);
        response = await fetchImpl(urlFor(spec.path, spec.query), {
          method: spec.method,
          headers: requestHeaders,
          body,
          signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
          redirect: 'error',
          ...(body instanceof ReadableStream ? { duplex: 'half' } : {}),
        } as RequestInit);
      } catch (error) {
        if (signal?.aborted) throw signal.reason;
        transientRetries += 1;
        if (transientRetries > maxTransientRetries) {
          throw new ServiceClientError(
            'unavailable',
            redact(`${spec.name} could not reach the service: ${describeNetworkError(error)}`),
          );
        }
        await clock.sleep(backoffWaitMs(transientRetries, random), signal);
        continue;
      }
      budget.observe(spec.operation, response.headers, clock);
      if (response.status === 429) {
        rateLimitedTries += 1;
        await response.body?.cancel();
        if (rateLimitedTries >= maxTries) {
          throw new ServiceClientError('rate_limited', `${spec.name} was rate limited ${maxTries} times in a row.`, {
            status: 429,
          });
        }
        const waitMs = retryAfterWaitMs(
          parseRetryAfter(response.headers.get(specHeaders.retryAfter), clock.now()),
          rateLimitedTries,
          random,
        );
        budget.pauseUntil(spec.operation, clock.now() + waitMs);
        continue;
      }
      if (response.status >= 500) {
        await response.body?.cancel();
        transientRetries += 1;
        if (transientRetries > maxTransientRetries) {
          throw new ServiceClientError('unavailable', `${spec.name} kept failing with HTTP ${response.status}.`, {
            status: response.status,
          });
        }
        await clock.sleep(backoffWaitMs(transientRetries, random), signal);
        continue;
      }
      if (!response.ok) throw await errorFrom(response, spec.name);
      return spec.read(response);
    }
  }

  const accountRequest = (): RequestSpec<Account> => ({
    operation: 'other',
    method: 'GET',
    name: 'GET /account',
    path: paths.account,
    read: (response) => readJson(response, 'GET /account', accountSchema),
  });

  const readBatch = (name: string) => (response: Response) => readJson(response, name, batchObjectSchema);

  return {
    mode,
    maskedKey: masked,

    verify(email: string, idempotencyKey: string = randomUUID(), signal?: AbortSignal): Promise<VerifyResult> {
      return call(
        {
          operation: 'verify',
          method: 'POST',
          name: 'POST /verify',
          path: paths.verify,
          json: { email },
          idempotencyKey,
          read: (response) => readJson(response, 'POST /verify', resultRowSchema.and(verdictFlagsSchema)),
        },
        signal,
      );
    },

    /** One batch; the caller keeps `idempotencyKey` with its job so a resumed job never creates it twice. */
    createBatch(
      request: CreateBatchRequest,
      idempotencyKey: string = randomUUID(),
      signal?: AbortSignal,
    ): Promise<BatchObject> {
      if (request.emails.length > maxBatchSize) {
        throw new ServiceClientError(
          'bad_request',
          `A batch holds at most ${maxBatchSize} addresses here; use createBatches to split.`,
        );
      }
      return call(
        {
          operation: 'createBatch',
          method: 'POST',
          name: 'POST /batches',
          path: paths.batches,
          json: request,
          idempotencyKey,
          read: readBatch('POST /batches'),
        },
        signal,
      );
    },

    /** A list longer than the maximum batch size, as several batches; part i uses `${idempotencyKey}.${i}`. */
    async createBatches(
      request: CreateBatchRequest,
      idempotencyKey: string = randomUUID(),
      signal?: AbortSignal,
    ): Promise<BatchObject[]> {
      const parts = Math.max(1, Math.ceil(request.emails.length / maxBatchSize));
      const batches: BatchObject[] = [];
      for (let part = 0; part < parts; part += 1) {
        const emails = request.emails.slice(part * maxBatchSize, (part + 1) * maxBatchSize);
        const name = parts === 1 ? request.name : `${request.name ?? 'batch'} (${part + 1}/${parts})`;
        batches.push(await this.createBatch({ name, emails }, `${idempotencyKey}.${part}`, signal));
      }
      return batches;
    },

    /** Streams a CSV file from disk as a new batch. */
    uploadFile(
      path: string,
      name: string,
      idempotencyKey: string = randomUUID(),
      signal?: AbortSignal,
    ): Promise<BatchObject> {
      return call(
        {
          operation: 'uploadFile',
          method: 'POST',
          name: 'POST /files',
          path: paths.files,
          query: { [filesNameParam]: name },
          body: () => ({
            body: Readable.toWeb(createReadStream(path)) as ReadableStream,
            contentType: filesContentType,
          }),
          idempotencyKey,
          read: readBatch('POST /files'),
        },
        signal,
      );
    },

    getBatch(id: string, signal?: AbortSignal): Promise<BatchStatus> {
      return call(
        {
          operation: 'batchStatus',
          method: 'GET',
          name: 'GET /batches/{id}',
          path: paths.batch(id),
          read: (response) => readJson(response, 'GET /batches/{id}', batchStatusSchema) as Promise<BatchStatus>,
        },
        signal,
      );
    },

    getResultsPage(
      id: string,
      page: { cursor?: string | null; limit?: number; filter?: string } = {},
      signal?: AbortSignal,
    ): Promise<ResultsPage> {
      return call(
        {
          operation: 'other',
          method: 'GET',
          name: 'GET /batches/{id}/results',
          path: paths.results(id),
          // The cursor goes back exactly as it came: never decoded, never rebuilt.
          query: {
            limit: page.limit === undefined ? undefined : String(page.limit),
            cursor: page.cursor ?? undefined,
            [resultsFilterParam]: page.filter,
          },
          read: (response) => readJson(response, 'GET /batches/{id}/results', resultsPageSchema),
        },
        signal,
      );
    },

    /** Streams a finished batch's CSV to `destination`, written under a temporary name and renamed when whole. */
    downloadCsv(id: string, destination: string, signal?: AbortSignal): Promise<void> {
      return call(
        {
          operation: 'other',
          method: 'GET',
          name: 'GET /batches/{id}/results.csv',
          path: resultsCsvPath(id),
          async read(response) {
            const partial = `${destination}.partial`;
            try {
              await pipeline(
                Readable.fromWeb(response.body! as import('node:stream/web').ReadableStream),
                createWriteStream(partial),
              );
              await rename(partial, destination);
            } catch (error) {
              await rm(partial, { force: true });
              throw error;
            }
          },
        },
        signal,
      );
    },

    cancelBatch(id: string, idempotencyKey: string = randomUUID(), signal?: AbortSignal): Promise<BatchObject> {
      return call(
        {
          operation: 'other',
          method: 'POST',
          name: 'POST /batches/{id}/cancel',
          path: cancelPath(id),
          json: {},
          idempotencyKey,
          read: readBatch('POST /batches/{id}/cancel'),
        },
        signal,
      );
    },

    getAccount(signal?: AbortSignal): Promise<Account> {
      return call(accountRequest(), signal);
    },
  };
}

function describeNetworkError(error: unknown): string {
  if (error instanceof Error) {
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    if (error.name === 'TimeoutError') return 'the request timed out';
    return cause?.code ?? cause?.message ?? error.message;
  }
  return String(error);
}
