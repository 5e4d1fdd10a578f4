import type { ErrorBody } from '../wire/spec.ts';

/** An error answered with the spec's error envelope. */
export class ServiceError extends Error {
  readonly status: number;
  readonly type: string;
  readonly code: string;
  readonly headers: Record<string, string>;

  constructor(status: number, type: string, code: string, message: string, headers: Record<string, string> = {}) {
    super(message);
    this.name = 'ServiceError';
    this.status = status;
    this.type = type;
    this.code = code;
    this.headers = headers;
  }

  body(): ErrorBody {
    return { error: { type: this.type, code: this.code, message: this.message } };
  }
}

export const invalidRequest = (code: string, message: string, status = 400) =>
  new ServiceError(status, 'invalid_request_error', code, message);
