// What went wrong, in the service's own terms. Domain code raises these; http/error-responses.ts alone
// turns a kind into an HTTP status and the spec's error envelope.

export type ServiceErrorKind =
  | 'invalid_request'
  | 'authentication'
  | 'payment_required'
  | 'not_found'
  | 'method_not_allowed'
  | 'conflict'
  | 'gone'
  | 'too_large'
  | 'rate_limited'
  | 'internal';

export class ServiceError extends Error {
  readonly kind: ServiceErrorKind;
  readonly code: string;
  /** Headers the answer carries (Retry-After with a rate limit). */
  readonly headers: Record<string, string>;

  constructor(kind: ServiceErrorKind, code: string, message: string, headers: Record<string, string> = {}) {
    super(message);
    this.name = 'ServiceError';
    this.kind = kind;
    this.code = code;
    this.headers = headers;
  }
}

/** The common case: a request the service cannot take as it is. */
export const invalidRequest = (code: string, message: string) => new ServiceError('invalid_request', code, message);
