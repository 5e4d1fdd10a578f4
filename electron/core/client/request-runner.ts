// Runs one call from the operations table: keeps the rate budget, sends, reads the answer, and on any
// failure asks the retry policy once what to do next. The only code that calls fetch, and the only place
// the key is written: into the Authorization header, never into a URL, a log line or an error.
import { randomUUID } from 'node:crypto';
import type { z } from 'zod';
import { headers as specHeaders } from '../wire/spec.ts';
import { apiUrl, type ApiRoot } from './base-url.ts';
import { ServiceClientError, errorEnvelopeOf } from './client-errors.ts';
import type { Clock } from './clock.ts';
import type { OperationSpec, PathOf } from './operations.ts';
import type { RateBudget } from './rate-budget.ts';
import type { Decide, Outcome } from './retry-policy.ts';

type RequestBody = NonNullable<RequestInit['body']>;

type CallRequest<Path extends PathOf> = (Path extends string ? { id?: undefined } : { id: string }) & {
  query?: Record<string, string | undefined>;
  json?: unknown;
  /** A body made afresh for each try (a file stream cannot be sent twice). */
  body?: () => { body: RequestBody; contentType: string };
  /** Sent on every try of the call; a POST without one gets a fresh key, so its retries are safe too. */
  idempotencyKey?: string;
  /**
   * Reads a streamed answer's body (a download) within the try: a body that breaks off is tried again as a
   * reset is. A failure of the reader's own (a disk that is full) ends the call as it is.
   */
  consume?: (response: Response) => Promise<void>;
  signal?: AbortSignal;
};

/** The parsed JSON, or for a streamed download the response itself. */
type Answer<Schema> = Schema extends z.ZodType ? z.infer<Schema> : Response;

export type RequestRunnerSettings = {
  root: ApiRoot;
  apiKey: string;
  /** Pins the response shape (the spec's provisional Service-Version header). */
  serviceVersion?: string;
  timeoutMs: number;
  clock: Clock;
  fetch: typeof fetch;
  budget: RateBudget;
  decide: Decide;
  /** The balance after a 402 refused `call`, to say how short the account is; undefined when it cannot be read. */
  balanceAfterRefusal(call: OperationSpec): Promise<number | undefined>;
};

/** What broke a body off, in words: fetch says only "terminated", its cause says why. */
function cutDetail(error: unknown): string {
  const cause = (error as { cause?: { message?: string } }).cause?.message;
  return `the connection closed mid-answer${cause ? `: ${cause}` : ''}`;
}

export function createRequestRunner(settings: RequestRunnerSettings) {
  const { root, apiKey, timeoutMs, clock, budget, decide } = settings;

  /** One try: the response, or what stood in the way of one. */
  async function send(
    op: OperationSpec,
    url: string,
    request: CallRequest<PathOf>,
    idempotencyKey?: string,
  ): Promise<{ response: Response } | { outcome: Outcome }> {
    const requestHeaders: Record<string, string> = {
      [specHeaders.authorization]: `Bearer ${apiKey}`,
      Accept: 'application/json',
    };
    if (settings.serviceVersion) requestHeaders[specHeaders.serviceVersion] = settings.serviceVersion;
    if (idempotencyKey) requestHeaders[specHeaders.idempotencyKey] = idempotencyKey;
    let body: RequestBody | undefined;
    if (request.json !== undefined) {
      body = JSON.stringify(request.json);
      requestHeaders['Content-Type'] = 'application/json';
    } else if (request.body) {
      const made = request.body();
      body = made.body;
      requestHeaders['Content-Type'] = made.contentType;
    }
    const timeout = AbortSignal.timeout(timeoutMs);
    try {
      const response = await settings.fetch(url, {
        method: op.method,
        headers: requestHeaders,
        body,
        signal: request.signal ? AbortSignal.any([request.signal, timeout]) : timeout,
        redirect: 'error',
        ...(body instanceof ReadableStream ? { duplex: 'half' } : {}),
      } as RequestInit);
      budget.observe(op.operation, response.headers, clock);
      return { response };
    } catch (error) {
      if (request.signal?.aborted) throw request.signal.reason;
      return {
        outcome: timeout.aborted
          ? { call: op.name, kind: 'timeout', afterMs: timeoutMs }
          : { call: op.name, kind: 'unreachable', error },
      };
    }
  }

  async function failedAnswer(op: OperationSpec, response: Response): Promise<Outcome> {
    const envelope = errorEnvelopeOf(await response.text().catch(() => ''));
    return {
      call: op.name,
      kind: 'answer',
      status: response.status,
      retryAfter: response.headers.get(specHeaders.retryAfter),
      ...envelope,
      balance: response.status === 402 ? await settings.balanceAfterRefusal(op) : undefined,
    };
  }

  /** Null once `consume` has read the whole body; the outcome to retry where the body broke off. */
  async function consumeBody(
    op: OperationSpec,
    response: Response,
    consume: (response: Response) => Promise<void>,
    signal?: AbortSignal,
  ): Promise<Outcome | null> {
    try {
      await consume(response);
      return null;
    } catch (error) {
      // Aborted by the person, or the reader's own failure (a file system call): not the network's.
      if (signal?.aborted) throw signal.reason;
      if ((error as { syscall?: unknown }).syscall !== undefined) throw error;
      return { call: op.name, kind: 'cut', status: response.status, detail: cutDetail(error) };
    }
  }

  /**
   * The answer's JSON in `schema`'s shape; or, where its body broke off (the connection dropped after the
   * headers came, or what came does not parse), an outcome to retry as a reset is.
   */
  async function readJson<S extends z.ZodType>(
    op: OperationSpec,
    response: Response,
    schema: S,
    signal?: AbortSignal,
  ): Promise<{ value: z.infer<S> } | { outcome: Outcome }> {
    let text = '';
    const cut = await consumeBody(op, response, async (whole) => void (text = await whole.text()), signal);
    if (cut) return { outcome: cut };
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      const detail = `${text.length.toLocaleString('en')} bytes that are not whole JSON`;
      return { outcome: { call: op.name, kind: 'cut', status: response.status, detail } };
    }
    const parsed = schema.safeParse(value);
    if (!parsed.success) {
      throw new ServiceClientError(
        'protocol',
        `${op.name} answered ${response.status} with JSON that is not the expected shape.`,
        { status: response.status },
      );
    }
    return { value: parsed.data };
  }

  return async function run<Path extends PathOf, Schema extends z.ZodType | null>(
    op: OperationSpec<Path, Schema>,
    request: CallRequest<Path>,
  ): Promise<Answer<Schema>> {
    const { id, signal } = request as CallRequest<PathOf> & { id?: string };
    const path = typeof op.path === 'string' ? op.path : op.path(id!);
    const url = apiUrl(root, path, request.query);
    const idempotencyKey = request.idempotencyKey ?? (op.method === 'POST' ? randomUUID() : undefined);
    const tries: Outcome[] = [];
    for (;;) {
      await budget.acquire(op.operation, clock, signal);
      const sent = await send(op, url, request, idempotencyKey);
      let outcome: Outcome;
      if ('response' in sent && sent.response.ok) {
        const { response } = sent;
        if (op.schema === null) {
          if (!request.consume) return response as Answer<Schema>;
          const cut = await consumeBody(op, response, request.consume, signal);
          if (!cut) return response as Answer<Schema>;
          outcome = cut;
        } else {
          const read = await readJson(op, response, op.schema, signal);
          if ('value' in read) return read.value as Answer<Schema>;
          outcome = read.outcome;
        }
      } else outcome = 'response' in sent ? await failedAnswer(op, sent.response) : sent.outcome;
      const decision = decide(outcome, tries);
      if (decision.action === 'fail') throw decision.error;
      tries.push(outcome);
      // After a 429 every caller of this operation on the key waits; otherwise only this call does.
      if (decision.pauseBudget) budget.pauseUntil(op.operation, clock.now() + decision.waitMs);
      else await clock.sleep(decision.waitMs, signal);
    }
  };
}
