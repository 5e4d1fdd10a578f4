// A second verification service that follows the spec and nothing of Sift's own: written apart from
// Sift's service, it has POST /batches and the cursor loop only (no /files, no CSV download), statuses of
// its own (`queued`, `processing`, `complete`), a creation answered with the new batch's id alone (all
// the spec shows of it), a batch status with just `id`, `status`, `submitted` and `unique`, an account with none of Sift's fields, empty pages with has_more while it works, a 413 above
// its batch size, and 429s with Retry-After where a test asks for them. Its verdicts are the sandbox's
// script, so its outputs can be compared with Sift's own service's. It counts what it was sent.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomBytes } from 'node:crypto';
import { sandboxVerdict } from '../../electron/core/service/engines/sandbox-engine.ts';

export type SpecPeerOptions = {
  /** The one key it accepts (`svc_live_…` bills, `svc_test_…` does not). */
  apiKey: string;
  /** A POST /batches with more addresses is answered 413. */
  maxBatch?: number;
  /** Addresses it checks a second, per batch. */
  checksPerSecond?: number;
  /** Answer 429 (Retry-After: 1) to these POST /batches calls, counted from 1; likewise results pages. */
  throttleBatchCalls?: number[];
  throttleResultCalls?: number[];
  /** The batches made these times (counted from 1) are made, then their answer is held back (up to 5 s):
   * a client killed meanwhile never learns the batch id, and must get it again by its Idempotency-Key. */
  holdBatchAnswers?: number[];
  /** Verdicts that replace the sandbox's script, by address; the test may change them between batches. */
  verdicts?: Map<string, string>;
  /** What a creation answers: the id alone (default: all the spec shows), or the whole batch status. */
  creationAnswer?: 'id' | 'batch';
};

type Batch = { id: string; emails: string[]; createdAt: number; live: boolean };

export type SpecPeer = {
  baseUrl: string;
  /** How many times each address (as sent) came in a created batch. */
  submissions: Map<string, number>;
  batches: Batch[];
  /** Requests by method and route (`POST /batches`, `GET /files`, …), whatever they were answered. */
  calls: Map<string, number>;
  /** How many answers were held back so far (see holdBatchAnswers). */
  readonly held: number;
  close(): Promise<void>;
};

const billable = new Set(['valid', 'invalid', 'catch_all']);

function send(response: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
  const now = Math.floor(Date.now() / 1000);
  response.writeHead(status, {
    'Content-Type': 'application/json',
    // Every response carries the rate-limit headers (spec); generous, so the 429s are the injected ones.
    'X-RateLimit-Limit': '1000',
    'X-RateLimit-Remaining': '999',
    'X-RateLimit-Reset': String(now + 60),
    ...headers,
  });
  response.end(JSON.stringify(body));
}

const error = (type: string, code: string, message: string) => ({ error: { type, code, message } });

async function bodyOf(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

export async function startSpecPeer(options: SpecPeerOptions): Promise<SpecPeer> {
  const maxBatch = options.maxBatch ?? 100_000;
  const checksPerSecond = options.checksPerSecond ?? 20_000;
  const batches = new Map<string, Batch>();
  const replays = new Map<string, { body: string; status: number; answer: unknown }>();
  const cursors = new Map<string, number>();
  const submissions = new Map<string, number>();
  const calls = new Map<string, number>();
  let batchCalls = 0;
  let resultCalls = 0;
  let held = 0;

  const checkedOf = (batch: Batch) =>
    Math.min(batch.emails.length, Math.floor(((Date.now() - batch.createdAt) / 1000) * checksPerSecond));
  const statusOf = (batch: Batch) => {
    const checked = checkedOf(batch);
    return checked === 0 ? 'queued' : checked < batch.emails.length ? 'processing' : 'complete';
  };
  const batchObject = (batch: Batch) => ({
    id: batch.id,
    status: statusOf(batch),
    submitted: batch.emails.length,
    unique: new Set(batch.emails.map((email) => email.toLowerCase())).size,
  });
  const rowOf = (batch: Batch, email: string) => {
    const at = email.lastIndexOf('@');
    const result = options.verdicts?.get(email) ?? sandboxVerdict(email.slice(0, at), email.slice(at + 1)).result;
    return { email, result, billed: batch.live && billable.has(result) };
  };
  const cursorFor = (offset: number) => {
    const token = randomBytes(9).toString('base64url');
    cursors.set(token, offset);
    return token;
  };

  async function createBatch(request: IncomingMessage, response: ServerResponse, live: boolean) {
    batchCalls += 1;
    const text = await bodyOf(request);
    if (options.throttleBatchCalls?.includes(batchCalls)) {
      return send(response, 429, error('rate_limit_error', 'slow_down', 'Too many.'), { 'Retry-After': '1' });
    }
    const key = request.headers['idempotency-key'];
    const earlier = typeof key === 'string' ? replays.get(key) : undefined;
    if (earlier) {
      if (earlier.body !== text) return send(response, 409, error('invalid_request_error', 'key_reused', 'Reused.'));
      return send(response, earlier.status, earlier.answer);
    }
    let emails: unknown;
    try {
      emails = (JSON.parse(text) as { emails?: unknown }).emails;
    } catch {
      return send(response, 400, error('invalid_request_error', 'bad_json', 'Not JSON.'));
    }
    if (!Array.isArray(emails) || emails.some((email) => typeof email !== 'string')) {
      return send(response, 400, error('invalid_request_error', 'bad_emails', 'emails must be strings.'));
    }
    if (emails.length > maxBatch) {
      return send(response, 413, error('invalid_request_error', 'too_large', `At most ${maxBatch} per batch.`));
    }
    const batch: Batch = { id: `bat_${randomBytes(8).toString('hex')}`, emails, createdAt: Date.now(), live };
    batches.set(batch.id, batch);
    for (const email of emails as string[]) submissions.set(email, (submissions.get(email) ?? 0) + 1);
    const answer = options.creationAnswer === 'batch' ? batchObject(batch) : { id: batch.id };
    if (typeof key === 'string') replays.set(key, { body: text, status: 201, answer });
    if (options.holdBatchAnswers?.includes(batches.size)) {
      held += 1;
      await new Promise((resolve) => setTimeout(resolve, 5000));
      if (response.destroyed) return;
    }
    send(response, 201, answer);
  }

  function results(url: URL, response: ServerResponse, batch: Batch) {
    resultCalls += 1;
    if (options.throttleResultCalls?.includes(resultCalls)) {
      return send(response, 429, error('rate_limit_error', 'slow_down', 'Too many.'), { 'Retry-After': '1' });
    }
    const limit = Number(url.searchParams.get('limit') ?? 100);
    if (!Number.isInteger(limit) || limit < 1 || limit > 1000) {
      return send(response, 400, error('invalid_request_error', 'bad_limit', 'limit is 1 to 1000.'));
    }
    const cursor = url.searchParams.get('cursor');
    const offset = cursor === null ? 0 : cursors.get(cursor);
    if (offset === undefined) return send(response, 400, error('invalid_request_error', 'bad_cursor', 'Unknown.'));
    const ready = checkedOf(batch);
    const data = batch.emails.slice(offset, Math.min(ready, offset + limit)).map((email) => rowOf(batch, email));
    const end = offset + data.length;
    // While it works, has_more stays true even when the reader has caught up (an empty page comes back).
    const hasMore = end < batch.emails.length;
    send(response, 200, { data, has_more: hasMore, next_cursor: hasMore ? cursorFor(end) : null });
  }

  const server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://peer');
    const route = url.pathname.replace(/bat_[0-9a-f]+/, '{id}');
    const name = `${request.method} ${route.replace(/^\/v1/, '')}`;
    calls.set(name, (calls.get(name) ?? 0) + 1);
    const auth = request.headers.authorization;
    if (auth !== `Bearer ${options.apiKey}`) {
      return send(response, 401, error('authentication_error', auth ? 'invalid_api_key' : 'no_key', 'Key refused.'));
    }
    const live = options.apiKey.startsWith('svc_live_');
    const id = /^\/v1\/batches\/(bat_[0-9a-f]+)/.exec(url.pathname)?.[1];
    const batch = id === undefined ? undefined : batches.get(id);
    if (request.method === 'POST' && url.pathname === '/v1/batches') return void createBatch(request, response, live);
    if (request.method === 'GET' && url.pathname === '/v1/account') return send(response, 200, { plan: 'peer' });
    if (batch && request.method === 'GET' && url.pathname === `/v1/batches/${batch.id}`)
      return send(response, 200, batchObject(batch));
    if (batch && request.method === 'GET' && url.pathname === `/v1/batches/${batch.id}/results`)
      return results(url, response, batch);
    request.resume();
    send(response, 404, error('invalid_request_error', 'not_found', 'No route.'));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    submissions,
    get batches() {
      return [...batches.values()];
    },
    calls,
    get held() {
      return held;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
