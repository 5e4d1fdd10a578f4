// The /v1 HTTP interface of the embedded service. Order of checks for every request:
// version header → route → authentication (nothing unauthenticated goes further) → rate limit → the call.
import { createHash, randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { join } from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import Papa from 'papaparse';
import { AppError } from '../../common/app-error.ts';
import { checkSyntax } from '../email/syntax.ts';
import { detachCell, readCsvRows } from '../lists/csv-reader.ts';
import {
  accountSchema,
  assumedErrors,
  batchStatuses,
  createBatchRequestSchema,
  createdStatus,
  currentServiceVersion,
  filesNameParam,
  hasMoreWhileRunning,
  resultsCsvHeader,
  serviceVersionPattern,
  verifyRequestSchema,
} from '../wire/assumptions.ts';
import {
  apiPrefix,
  headers,
  keyModeOf,
  resultsFilterParam,
  resultsPageLimits,
  type ResultsPage,
} from '../wire/spec.ts';
import { transaction, type Database, sql } from '../storage/sqlite.ts';
import { authenticate, type ApiKeyRecord } from './api-keys.ts';
import {
  batchObject,
  beginBatch,
  cancelBatch,
  discardBatch,
  getBatchFor,
  openBatch,
  readResults,
  resultsExpired,
  stageAddresses,
  toResultRow,
} from './batches.ts';
import { accountState, assertCanPay, reserveCredits } from './credits.ts';
import type { CursorCodec } from './cursors.ts';
import { claimIdempotencyKey, requestHash, settleIdempotencyKey, type StoredResponse } from './idempotency.ts';
import type { RateLimiter } from './rate-limiter.ts';
import { ProbeError, type VerificationEngine } from './sandbox-verdicts.ts';
import type { RateLimitOperation, ServiceConfig } from './service-config.ts';
import { invalidRequest, ServiceError } from './service-error.ts';

export type ServiceContext = {
  db: Database;
  config: ServiceConfig;
  limiter: RateLimiter;
  cursors: CursorCodec;
  engines: Record<'live' | 'sandbox', VerificationEngine>;
};

type Call = {
  key: ApiKeyRecord;
  params: string[];
  url: URL;
  request: IncomingMessage;
  response: ServerResponse;
};

type Route = {
  method: string;
  pattern: RegExp;
  operation: RateLimitOperation;
  handle(context: ServiceContext, call: Call): Promise<void>;
};

const stageChunk = 5000;
/** Sift's own ceiling for unauthenticated requests per client address, so keys cannot be guessed quickly. */
const anonymousRule = { limit: 60, windowSeconds: 60 };

const routes: Route[] = [
  { method: 'POST', pattern: /^\/verify$/, operation: 'verify', handle: verify },
  { method: 'POST', pattern: /^\/batches$/, operation: 'createBatch', handle: createBatch },
  { method: 'GET', pattern: /^\/batches\/([^/]+)$/, operation: 'batchStatus', handle: batchStatus },
  { method: 'GET', pattern: /^\/batches\/([^/]+)\/results$/, operation: 'other', handle: results },
  { method: 'GET', pattern: /^\/batches\/([^/]+)\/results\.csv$/, operation: 'other', handle: resultsCsv },
  { method: 'POST', pattern: /^\/batches\/([^/]+)\/cancel$/, operation: 'other', handle: cancel },
  { method: 'POST', pattern: /^\/files$/, operation: 'uploadFile', handle: uploadFile },
  { method: 'GET', pattern: /^\/account$/, operation: 'other', handle: account },
];

export function createServiceRequestHandler(context: ServiceContext) {
  return (request: IncomingMessage, response: ServerResponse) => {
    handleRequest(context, request, response).catch((error: unknown) => {
      const known = toServiceError(error);
      if (!known) console.error('sift service: request failed:', error);
      if (response.headersSent) {
        response.destroy();
        return;
      }
      request.resume();
      sendError(
        response,
        known ??
          new ServiceError(500, assumedErrors.apiError, 'internal_error', 'The service failed to handle this request.'),
      );
    });
  };
}

function toServiceError(error: unknown): ServiceError | null {
  if (error instanceof ServiceError) return error;
  if (error instanceof AppError) return invalidRequest(error.code, error.message);
  return null;
}

async function handleRequest(context: ServiceContext, request: IncomingMessage, response: ServerResponse) {
  const { config, db, limiter } = context;
  const pinned = request.headers[headers.serviceVersion.toLowerCase()];
  if (typeof pinned === 'string' && !serviceVersionPattern.test(pinned)) {
    response.setHeader(headers.serviceVersion, currentServiceVersion);
    throw invalidRequest(
      'invalid_service_version',
      `${headers.serviceVersion} must be a date like ${currentServiceVersion}.`,
    );
  }
  response.setHeader(headers.serviceVersion, typeof pinned === 'string' ? pinned : currentServiceVersion);

  const url = new URL(request.url ?? '/', 'http://service.invalid');
  const path = url.pathname.startsWith(`${apiPrefix}/`) ? url.pathname.slice(apiPrefix.length) : null;
  const matches = path === null ? [] : routes.filter((route) => route.pattern.test(path));
  const route = matches.find((candidate) => candidate.method === request.method);

  const now = config.now();
  let key: ApiKeyRecord;
  try {
    key = authenticate(db, request.headers.authorization, now);
  } catch (error) {
    setRateHeaders(response, limiter.take(`anonymous:${request.socket.remoteAddress}`, anonymousRule, now));
    request.resume();
    throw error;
  }
  if (!route) {
    request.resume();
    setRateHeaders(response, limiter.take(key.id, key.rateLimits.other ?? config.rateLimits.other, now));
    if (matches.length > 0) throw invalidRequest('method_not_allowed', `${request.method} is not allowed here.`, 405);
    throw invalidRequest('not_found', `No route ${request.method} ${url.pathname}.`, 404);
  }
  const decision = limiter.take(key.id, key.rateLimits[route.operation] ?? config.rateLimits[route.operation], now);
  setRateHeaders(response, decision);
  if (!decision.allowed) {
    request.resume();
    throw new ServiceError(
      429,
      assumedErrors.rateLimit,
      assumedErrors.rateLimited,
      'Too many requests for this key. Wait and retry.',
      {
        [headers.retryAfter]: String(decision.retryAfterSeconds),
      },
    );
  }
  for (const value of url.searchParams.values()) {
    if (keyModeOf(value)) {
      request.resume();
      throw invalidRequest(
        'api_key_in_query',
        'Never put an API key in a URL. Send it only in the Authorization header.',
      );
    }
  }
  await route.handle(context, {
    key,
    params: route.pattern.exec(path!)!.slice(1).map(decodeURIComponent),
    url,
    request,
    response,
  });
}

function setRateHeaders(
  response: ServerResponse,
  decision: { limit: number; remaining: number; resetSeconds: number },
) {
  response.setHeader(headers.rateLimitLimit, String(decision.limit));
  response.setHeader(headers.rateLimitRemaining, String(decision.remaining));
  response.setHeader(headers.rateLimitReset, String(decision.resetSeconds));
}

function send(response: ServerResponse, stored: StoredResponse, replayed = false) {
  response.writeHead(stored.status, {
    'Content-Type': 'application/json; charset=utf-8',
    ...(replayed ? { 'Idempotent-Replayed': 'true' } : {}),
  });
  response.end(stored.body);
}

function sendJson(response: ServerResponse, status: number, body: unknown) {
  send(response, { status, body: JSON.stringify(body) });
}

function sendError(response: ServerResponse, error: ServiceError) {
  for (const [name, value] of Object.entries(error.headers)) response.setHeader(name, value);
  sendJson(response, error.status, error.body());
}

async function readJson(request: IncomingMessage, maxBytes: number): Promise<{ text: string; value: unknown }> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    size += (chunk as Buffer).length;
    if (size > maxBytes)
      throw invalidRequest('body_too_large', `The request body is larger than ${maxBytes} bytes.`, 413);
    chunks.push(chunk as Buffer);
  }
  const text = Buffer.concat(chunks).toString('utf8');
  try {
    return { text, value: JSON.parse(text) };
  } catch {
    throw invalidRequest('invalid_json', 'The request body is not valid JSON.');
  }
}

/**
 * Runs a write once per Idempotency-Key: a replay answers the stored response without running `work`.
 * `work` answers the response to store and send; a ServiceError it throws is stored and sent too.
 */
async function idempotent(
  context: ServiceContext,
  call: Call,
  hash: string,
  work: (settle: (stored: StoredResponse) => void) => Promise<StoredResponse>,
): Promise<void> {
  const idemKey = call.request.headers[headers.idempotencyKey.toLowerCase()];
  const { db, config } = context;
  if (typeof idemKey !== 'string' || idemKey === '') {
    send(call.response, await work(() => {}));
    return;
  }
  if (idemKey.length > 255)
    throw invalidRequest('invalid_idempotency_key', 'An Idempotency-Key is at most 255 characters.');
  // Scoped to the account's mode, not the key: a retry after a key rotation is still recognised.
  const scope = `account:${call.key.mode}`;
  const replay = claimIdempotencyKey(db, scope, idemKey, hash, config.now());
  if (replay) {
    send(call.response, replay, true);
    return;
  }
  let settled = false;
  const settle = (stored: StoredResponse) => {
    settleIdempotencyKey(db, scope, idemKey, stored);
    settled = true;
  };
  try {
    const stored = await work(settle);
    if (!settled) settle(stored);
    send(call.response, stored);
  } catch (error) {
    const known = toServiceError(error);
    settleIdempotencyKey(
      db,
      scope,
      idemKey,
      known ? { status: known.status, body: JSON.stringify(known.body()) } : { status: 500, body: '' },
    );
    throw error;
  }
}

async function verify(context: ServiceContext, call: Call) {
  const { db, config, engines } = context;
  const { text, value } = await readJson(call.request, 64 * 1024);
  const parsed = verifyRequestSchema.safeParse(value);
  if (!parsed.success) throw invalidRequest('missing_email', 'The body must be JSON with a string field `email`.');
  await idempotent(context, call, requestHash('verify', text), async (settle) => {
    const email = parsed.data.email.trim();
    const syntax = checkSyntax(email);
    if (!syntax.ok) {
      return {
        status: 200,
        body: JSON.stringify({
          email,
          result: 'invalid',
          billed: false,
          role: false,
          disposable: false,
          reason: 'invalid_syntax',
        }),
      };
    }
    const live = call.key.mode === 'live';
    // Checked before the probe so an empty account is told at once; charged after it, once.
    if (live) assertCanPay(db, config, config.now(), 1);
    let verdict;
    try {
      verdict = await engines[call.key.mode].verify(syntax.local, syntax.asciiDomain);
    } catch (error) {
      if (!(error instanceof ProbeError)) throw error;
      // A check that could not be made is not charged.
      return {
        status: 200,
        body: JSON.stringify({
          email,
          result: 'unknown',
          billed: false,
          role: false,
          disposable: false,
          reason: 'probe_failed',
        }),
      };
    }
    return transaction(db, () => {
      if (live) reserveCredits(db, config, config.now(), 1);
      const stored = {
        status: 200,
        body: JSON.stringify({
          email,
          result: verdict.result,
          billed: live,
          role: verdict.role,
          disposable: verdict.disposable,
          reason: verdict.reason,
        }),
      };
      settle(stored);
      return stored;
    });
  });
}

async function createBatch(context: ServiceContext, call: Call) {
  const { db, config } = context;
  const { text, value } = await readJson(call.request, config.maxJsonBytes);
  const parsed = createBatchRequestSchema.safeParse(value);
  if (!parsed.success)
    throw invalidRequest('invalid_batch', 'The body must be JSON `{ "name": string, "emails": [string, ...] }`.');
  const { emails, name = '' } = parsed.data;
  if (emails.length === 0) throw invalidRequest('empty_batch', 'A batch needs at least one address.');
  if (emails.length > config.maxBatchAddresses)
    throw invalidRequest('batch_too_large', `A batch holds at most ${config.maxBatchAddresses} addresses.`);
  await idempotent(context, call, requestHash('batches', text), (settle) =>
    createStagedBatch(context, call, name, settle, (batchId) => {
      for (let i = 0; i < emails.length; i += stageChunk)
        stageAddresses(db, config, batchId, emails.slice(i, i + stageChunk));
    }),
  );
}

/** Stages a new batch's addresses and opens it; the answer is stored for replays in the same transaction. */
async function createStagedBatch(
  context: ServiceContext,
  call: Call,
  name: string,
  settle: (stored: StoredResponse) => void,
  stage: (batchId: string) => void | Promise<void>,
): Promise<StoredResponse> {
  const { db, config } = context;
  const batchId = beginBatch(db, config.now(), call.key, name);
  try {
    await stage(batchId);
  } catch (error) {
    discardBatch(db, batchId);
    throw error;
  }
  let stored: StoredResponse | undefined;
  openBatch(db, config, config.now(), batchId, (batch) => {
    stored = { status: createdStatus, body: JSON.stringify(batchObject(batch)) };
    settle(stored);
  });
  return stored!;
}

async function batchStatus(context: ServiceContext, call: Call) {
  sendJson(call.response, 200, batchObject(getBatchFor(context.db, call.params[0]!, call.key.mode)));
}

function parseLimit(raw: string | null): number {
  if (raw === null) return resultsPageLimits.default;
  const limit = Number(raw);
  if (!/^\d+$/.test(raw) || limit < resultsPageLimits.min || limit > resultsPageLimits.max) {
    throw invalidRequest(
      'invalid_limit',
      `limit must be a whole number from ${resultsPageLimits.min} to ${resultsPageLimits.max}.`,
    );
  }
  return limit;
}

async function results(context: ServiceContext, call: Call) {
  const { db, config, cursors } = context;
  const batch = getBatchFor(db, call.params[0]!, call.key.mode);
  const limit = parseLimit(call.url.searchParams.get('limit'));
  const cursor = call.url.searchParams.get('cursor');
  const filter = call.url.searchParams.get(resultsFilterParam) ?? undefined;
  if (resultsExpired(config, batch, config.now())) {
    throw cursor === null
      ? invalidRequest('results_expired', 'This batch is past its retention window; its results are gone.', 410)
      : invalidRequest(assumedErrors.cursorExpired, "This cursor expired with the batch's retention window.");
  }
  const position = cursor === null ? 0 : cursors.decode(cursor, batch.id);
  const rows = readResults(db, batch.id, position, limit + 1, filter);
  const page = rows.slice(0, limit);
  const moreStored = rows.length > limit;
  const hasMore = moreStored || (hasMoreWhileRunning && batch.status === batchStatuses.running);
  const last = page.at(-1)?.result_seq ?? position;
  const body: ResultsPage = {
    data: page.map(toResultRow),
    has_more: hasMore,
    next_cursor: hasMore ? cursors.encode(batch.id, last) : null,
  };
  sendJson(call.response, 200, body);
}

async function resultsCsv(context: ServiceContext, call: Call) {
  const { db, config } = context;
  const batch = getBatchFor(db, call.params[0]!, call.key.mode);
  if (batch.status === batchStatuses.running) {
    throw invalidRequest(
      assumedErrors.batchNotComplete,
      'The batch is still running; download its CSV when it has ended.',
      409,
    );
  }
  if (resultsExpired(config, batch, config.now()))
    throw invalidRequest('results_expired', 'This batch is past its retention window.', 410);
  const { response } = call;
  response.writeHead(200, {
    'Content-Type': 'text/csv; charset=utf-8',
    'Content-Disposition': `attachment; filename="${batch.id}.csv"`,
  });
  response.write(`${resultsCsvHeader.join(',')}\r\n`);
  // Paged from the database with backpressure, so a large batch never sits in memory whole.
  for (let position = 0; ;) {
    const rows = readResults(db, batch.id, position, 1000);
    if (rows.length === 0) break;
    const csv = Papa.unparse(
      rows.map((row) => [row.email, row.result, row.billed === 1 ? 'true' : 'false']),
      { newline: '\r\n' },
    );
    if (!response.write(`${csv}\r\n`)) await new Promise((resolve) => response.once('drain', resolve));
    position = rows.at(-1)!.result_seq;
  }
  response.end();
}

async function cancel(context: ServiceContext, call: Call) {
  const { db, config } = context;
  const batch = getBatchFor(db, call.params[0]!, call.key.mode);
  await idempotent(context, call, requestHash('cancel', batch.id), async (settle) => {
    let stored: StoredResponse | undefined;
    cancelBatch(db, config.now(), batch, (canceled) => {
      stored = { status: 200, body: JSON.stringify(batchObject(canceled)) };
      settle(stored);
    });
    return stored!;
  });
}

async function uploadFile(context: ServiceContext, call: Call) {
  const { config } = context;
  const name = call.url.searchParams.get(filesNameParam) ?? '';
  const dir = join(config.dataDir, 'uploads');
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const path = join(dir, `${randomUUID()}.csv`);
  const hash = createHash('sha256').update(`files\0${name}\0`);
  let size = 0;
  const meter = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      size += chunk.length;
      if (size > config.maxUploadBytes)
        done(invalidRequest('file_too_large', `An upload is at most ${config.maxUploadBytes} bytes.`, 413));
      else {
        hash.update(chunk);
        done(null, chunk);
      }
    },
  });
  try {
    // Streamed to disk first: memory stays flat however large the file is.
    await pipeline(call.request, meter, createWriteStream(path, { mode: 0o600 }));
    await idempotent(context, call, hash.digest('hex'), (settle) =>
      createStagedBatch(context, call, name, settle, (batchId) =>
        stageFile(context, batchId, path, name || 'upload.csv'),
      ),
    );
  } finally {
    await rm(path, { force: true });
  }
}

/** The column headed `email` (any case), else the first column (see wire assumptions). */
async function stageFile(context: ServiceContext, batchId: string, path: string, displayName: string) {
  let column = -1;
  let chunk: string[] = [];
  await readCsvRows(path, displayName, (row) => {
    if (column === -1) {
      const headed = row.findIndex((cell) => cell.trim().toLowerCase() === 'email');
      column = headed === -1 ? 0 : headed;
      // A first row that is a header, not an address, is not submitted.
      if (headed !== -1 || !(row[0] ?? '').includes('@')) return;
    }
    const address = (row[column] ?? '').trim();
    if (address === '') return;
    chunk.push(detachCell(address));
    if (chunk.length >= stageChunk) {
      stageAddresses(context.db, context.config, batchId, chunk);
      chunk = [];
    }
  });
  if (chunk.length > 0) stageAddresses(context.db, context.config, batchId, chunk);
  const staged = sql(context.db, 'SELECT submitted FROM batches WHERE id = ?').get(batchId) as { submitted: number };
  if (staged.submitted === 0) throw invalidRequest('empty_batch', 'The file has no addresses.');
}

async function account(context: ServiceContext, call: Call) {
  const state = accountState(context.db, context.config, context.config.now());
  const body = accountSchema.parse({
    mode: call.key.mode,
    balance: state.balance,
    free_remaining: state.freeRemaining,
    key: { label: call.key.label, prefix: call.key.masked },
  });
  sendJson(call.response, 200, body);
}
