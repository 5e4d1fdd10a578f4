import type { ErrorCode } from './contract.ts';

/** An error the user can be shown as it is: `message` is written for people, `code` for code. */
export class AppError extends Error {
  readonly code: ErrorCode;

  constructor(code: ErrorCode, message: string) {
    super(message);
    this.name = 'AppError';
    this.code = code;
  }
}
