// Typed failures the UI and the CLI can explain, and the one place that words them: what a status means,
// and what stood between Sift and the service. No message ever carries a key, only its masked form.
import { assumedErrors } from '../wire/assumptions.ts';
import { errorBodySchema, maskKey, maxTries } from '../wire/spec.ts';
import { describeNetworkFailure } from './network-failures.ts';

export type ClientErrorKind =
  | 'configuration' // bad base URL or key, found before any request
  | 'authentication' // 401: the key is wrong or revoked
  | 'payment' // 402: out of credits
  | 'bad_request' // 400 (or another 4xx): the request itself is wrong; retrying will not help
  | 'not_found'
  | 'conflict' // 409
  | 'cursor_expired' // the batch's retention window closed
  | 'rate_limited' // 429 still after the spec's five tries
  | 'unavailable' // connection failures, timeouts or 5xx after every retry
  | 'protocol' // an answer that is not the expected JSON
  | 'stalled'; // a batch made no progress for longer than the client's stall timeout

export class ServiceClientError extends Error {
  readonly kind: ClientErrorKind;
  readonly status?: number;
  readonly code?: string;
  /** For `payment`: the account's balance when it could be read. */
  readonly balance?: number;

  constructor(
    kind: ClientErrorKind,
    message: string,
    details: { status?: number; code?: string; balance?: number; cause?: unknown } = {},
  ) {
    super(message, details.cause === undefined ? undefined : { cause: details.cause });
    this.name = 'ServiceClientError';
    this.kind = kind;
    this.status = details.status;
    this.code = details.code;
    this.balance = details.balance;
  }
}

/** What a person is told for each kind, before the service's own words. */
export function explainClientError(error: ServiceClientError): string {
  switch (error.kind) {
    case 'authentication':
      return 'The API key was refused: it is wrong or has been revoked.';
    case 'payment':
      return error.balance === undefined
        ? 'The account is out of credits.'
        : `The account is out of credits (balance ${error.balance}).`;
    case 'rate_limited':
      return 'The service kept asking Sift to slow down. Try again in a minute.';
    default:
      // `unavailable` included: its message already says, in words, what failed.
      return error.message;
  }
}

/** The key's masked form, and a scrubber for any text from outside (an error body, a system message). */
export type KeyMasking = { masked: string; redact(text: string): string };

export function keyMaskingFor(apiKey: string): KeyMasking {
  const masked = maskKey(apiKey);
  return {
    masked,
    redact: (text) =>
      text
        .split(apiKey)
        .join(masked)
        .replace(/svc_(live|test)_[A-Za-z0-9_-]{8,}/g, (key) => maskKey(key)),
  };
}

/** A non-2xx answer: its status and what its error envelope said, when it had one. */
export type FailedAnswer = {
  status: number;
  type?: string;
  code?: string;
  message?: string;
  /** For 402: the balance, read once after the refusal. */
  balance?: number;
};

/** The spec's error envelope (`error.type`, `error.code`, `error.message`), or nothing when the body is not one. */
export function errorEnvelopeOf(text: string): Pick<FailedAnswer, 'type' | 'code' | 'message'> {
  try {
    const parsed = errorBodySchema.safeParse(JSON.parse(text));
    if (parsed.success) return parsed.data.error;
  } catch {
    // not JSON: the status alone says what happened
  }
  return {};
}

/** The status → error mapping for answers that are never retried (400, 401, 402 and every other 4xx). */
export function errorFromAnswer(call: string, answer: FailedAnswer, keys: KeyMasking): ServiceClientError {
  const { status, type, code, message } = answer;
  const said = keys.redact(`${call} answered ${status}${code ? ` (${code})` : ''}${message ? `: ${message}` : ''}`);
  const details = { status, code: code ?? type };
  switch (status) {
    case 401:
      return new ServiceClientError(
        'authentication',
        `The service refused the key ${keys.masked}: it is wrong or revoked. ${said}`,
        details,
      );
    case 402:
      return new ServiceClientError(
        'payment',
        `Out of credits${answer.balance === undefined ? '' : ` (balance ${answer.balance})`}. ${said}`,
        { ...details, balance: answer.balance },
      );
    case 404:
      return new ServiceClientError('not_found', said, details);
    case 409:
      return new ServiceClientError('conflict', said, details);
    default:
      if (code === assumedErrors.cursorExpired || code === 'results_expired' || status === 410) {
        return new ServiceClientError(
          'cursor_expired',
          `The batch's results are past their retention window. ${said}`,
          details,
        );
      }
      return new ServiceClientError('bad_request', said, details);
  }
}

export function rateLimitedError(call: string): ServiceClientError {
  return new ServiceClientError('rate_limited', `${call} was rate limited ${maxTries} times in a row.`, {
    status: 429,
  });
}

/** A transient failure that lasted through every retry. */
export type TransientFailure =
  | { kind: 'unreachable'; error: unknown }
  | { kind: 'timeout'; afterMs: number }
  | { kind: 'cut'; status: number; detail: string }
  | { kind: 'answer'; status: number };

/** `unavailable`, saying in words what failed (refused, unknown host, timeout, TLS, server errors) and where. */
export function unavailableError(
  call: string,
  where: string,
  failure: TransientFailure,
  tries: number,
  keys: KeyMasking,
): ServiceClientError {
  const tried = `tried ${tries} ${tries === 1 ? 'time' : 'times'}`;
  switch (failure.kind) {
    case 'unreachable':
      return new ServiceClientError(
        'unavailable',
        keys.redact(
          `${call} could not reach the service at ${where} (${tried}): ${describeNetworkFailure(failure.error)}`,
        ),
      );
    case 'timeout':
      return new ServiceClientError(
        'unavailable',
        `${call} got no answer from the service at ${where} within ${seconds(failure.afterMs)} s (${tried}).`,
      );
    case 'cut':
      return new ServiceClientError(
        'unavailable',
        `${call} got answers from the service at ${where} whose body broke off or was not JSON (${failure.detail}; ${tried}).`,
        { status: failure.status },
      );
    case 'answer':
      return new ServiceClientError(
        'unavailable',
        `${call} kept failing at the service at ${where} with HTTP ${failure.status}, an error on its side (${tried}).`,
        { status: failure.status },
      );
  }
}

const seconds = (ms: number) => (ms / 1000).toLocaleString('en', { maximumFractionDigits: 1 });
