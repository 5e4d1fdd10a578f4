// Typed failures the UI and the CLI can explain. No message ever carries a key, only its masked form.

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
    case 'unavailable':
      return 'The verification service could not be reached.';
    default:
      return error.message;
  }
}
