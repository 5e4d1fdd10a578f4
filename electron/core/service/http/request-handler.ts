// The /v1 HTTP interface's pipeline. Order of checks for every request:
// version header → a readable path → failed keys from this address → authentication (nothing
// unauthenticated goes further) → route → rate limit → the call. Whatever a client sends, the answer is
// in the spec's error shape: a path that cannot be read is a 400, an id no batch could have a 404.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { assumedErrors, currentServiceVersion, serviceVersionPattern } from '../../wire/assumptions.ts';
import { apiPrefix, headers, keyModeOf } from '../../wire/spec.ts';
import { invalidRequest, ServiceError } from '../service-errors.ts';
import { authenticate, type ApiKeyRecord } from '../store/keys-store.ts';
import { internalError, sendError, toServiceError } from './error-responses.ts';
import { createFailedKeyGate, type FailedKeyGate } from './failed-key-gate.ts';
import { routes } from './routes.ts';
import type { ServiceContext } from './service-context.ts';

/** Sift's own bound on a path parameter (ids are far shorter): longer ones name nothing. */
const maxParamLength = 200;

/** The handler, and a promise of the end of every call still being worked (the service closes its database after). */
export type ServiceRequestHandler = ((request: IncomingMessage, response: ServerResponse) => void) & {
  settled(): Promise<void>;
};

export function createServiceRequestHandler(context: ServiceContext): ServiceRequestHandler {
  const working = new Set<Promise<void>>();
  const failedKeys = createFailedKeyGate();
  const handle = (request: IncomingMessage, response: ServerResponse) => {
    const call = handleRequest(context, failedKeys, request, response).catch((error: unknown) => {
      const known = toServiceError(error);
      if (!known) console.error('sift service: request failed:', error);
      if (response.headersSent) {
        response.destroy();
        return;
      }
      request.resume();
      sendError(response, known ?? internalError());
    });
    working.add(call);
    void call.finally(() => working.delete(call));
  };
  // A call whose client went away (an upload cut short by Ctrl-C) still ends its own writes first.
  return Object.assign(handle, { settled: () => Promise.all([...working]).then(() => undefined) });
}

async function handleRequest(
  context: ServiceContext,
  failedKeys: FailedKeyGate,
  request: IncomingMessage,
  response: ServerResponse,
) {
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

  if (!URL.canParse(request.url ?? '/', 'http://service.invalid')) {
    request.resume();
    throw invalidRequest('malformed_path', 'The request path is not a URL path.');
  }
  const url = new URL(request.url ?? '/', 'http://service.invalid');
  const path = url.pathname.startsWith(`${apiPrefix}/`) ? url.pathname.slice(apiPrefix.length) : null;
  const matches = path === null ? [] : routes.filter((route) => route.pattern.test(path));
  const route = matches.find((candidate) => candidate.method === request.method);

  const now = config.now();
  const client = request.socket.remoteAddress ?? 'unknown';
  const gate = failedKeys.check(client, now);
  if (!gate.allowed) {
    request.resume();
    setRateHeaders(response, gate);
    throw new ServiceError(
      'rate_limited',
      assumedErrors.rateLimited,
      'Too many wrong keys from this address. Wait and retry.',
      {
        [headers.retryAfter]: String(gate.retryAfterSeconds),
      },
    );
  }
  let key: ApiKeyRecord;
  try {
    key = await authenticate(db, request.headers.authorization, now);
  } catch (error) {
    if (error instanceof ServiceError && error.kind === 'authentication')
      setRateHeaders(response, failedKeys.failed(client, now));
    request.resume();
    throw error;
  }
  if (!route) {
    request.resume();
    setRateHeaders(response, await limiter.take(key.id, key.rateLimits.other ?? config.rateLimits.other, now));
    if (matches.length > 0) {
      throw new ServiceError('method_not_allowed', 'method_not_allowed', `${request.method} is not allowed here.`);
    }
    throw new ServiceError('not_found', 'not_found', `No route ${request.method} ${url.pathname}.`);
  }
  const decision = await limiter.take(
    key.id,
    key.rateLimits[route.operation] ?? config.rateLimits[route.operation],
    now,
  );
  setRateHeaders(response, decision);
  if (!decision.allowed) {
    request.resume();
    throw new ServiceError(
      'rate_limited',
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
    params: readParams(route.pattern.exec(path!)!.slice(1)),
    url,
    request,
    response,
  });
}

/**
 * The path's parameters decoded; a 400 for broken percent-encoding, a 404 for one no id could be (too long,
 * or holding control characters a database would refuse).
 */
function readParams(encoded: string[]): string[] {
  return encoded.map((text) => {
    let decoded: string;
    try {
      decoded = decodeURIComponent(text);
    } catch {
      throw invalidRequest('malformed_path', 'The request path has a broken percent-encoding.');
    }
    // eslint-disable-next-line no-control-regex
    if (decoded.length > maxParamLength || /[\u0000-\u001f\u007f]/.test(decoded)) {
      throw new ServiceError('not_found', 'not_found', 'No such object.');
    }
    return decoded;
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
