// The one place a failure becomes an HTTP answer: each kind of service error has its status and the
// spec's envelope type (the catalogue beyond the spec's two is assumed, see wire/assumptions.ts).
import { STATUS_CODES, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { AppError } from '../../../common/app-error.ts';
import { SizeLimitError } from '../../streams/size-limit.ts';
import { assumedErrors } from '../../wire/assumptions.ts';
import { errorTypes, type ErrorBody } from '../../wire/spec.ts';
import { ServiceError, type ServiceErrorKind } from '../service-errors.ts';
import type { StoredResponse } from '../store/idempotency-store.ts';

const answers: Record<ServiceErrorKind, { status: number; type: string }> = {
  invalid_request: { status: 400, type: assumedErrors.invalidRequest },
  authentication: { status: 401, type: errorTypes.authentication },
  payment_required: { status: 402, type: assumedErrors.paymentRequired },
  not_found: { status: 404, type: assumedErrors.invalidRequest },
  method_not_allowed: { status: 405, type: assumedErrors.invalidRequest },
  conflict: { status: 409, type: assumedErrors.invalidRequest },
  gone: { status: 410, type: assumedErrors.invalidRequest },
  too_large: { status: 413, type: assumedErrors.invalidRequest },
  rate_limited: { status: 429, type: assumedErrors.rateLimit },
  internal: { status: 500, type: assumedErrors.apiError },
};

/** A failure the service understands, or null for a bug (answered as a 500 and logged). */
export function toServiceError(error: unknown): ServiceError | null {
  if (error instanceof ServiceError) return error;
  if (error instanceof SizeLimitError) return new ServiceError('too_large', 'body_too_large', error.message);
  // Shared list code (the CSV reader) says what is wrong with a file in its own errors.
  if (error instanceof AppError) return new ServiceError('invalid_request', error.code, error.message);
  return null;
}

export const internalError = () =>
  new ServiceError('internal', 'internal_error', 'The service failed to handle this request.');

/** The status and envelope of an error, as sent and as stored for an idempotent replay. */
export function errorAnswer(error: ServiceError): StoredResponse {
  const { status, type } = answers[error.kind];
  const body: ErrorBody = { error: { type, code: error.code, message: error.message } };
  return { status, body: JSON.stringify(body) };
}

export function send(response: ServerResponse, stored: StoredResponse, replayed = false): void {
  response.writeHead(stored.status, {
    'Content-Type': 'application/json; charset=utf-8',
    ...(replayed ? { 'Idempotent-Replayed': 'true' } : {}),
  });
  response.end(stored.body);
}

export function sendJson(response: ServerResponse, status: number, body: unknown): void {
  send(response, { status, body: JSON.stringify(body) });
}

export function sendError(response: ServerResponse, error: ServiceError): void {
  for (const [name, value] of Object.entries(error.headers)) response.setHeader(name, value);
  send(response, errorAnswer(error));
}

/**
 * The answer to what Node's HTTP parser could not read (a method it does not know, a broken request line)
 * or will not pass on (CONNECT): still the spec's error shape, then the connection closes.
 */
export function answerOnSocket(socket: Duplex, error: ServiceError): void {
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  const { status, body } = errorAnswer(error);
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}

export const unreadableRequest = () =>
  new ServiceError('invalid_request', 'malformed_request', 'The request could not be read as HTTP/1.1.');

export const connectNotAllowed = () =>
  new ServiceError('method_not_allowed', 'method_not_allowed', 'CONNECT is not allowed here.');
