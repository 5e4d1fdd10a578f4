// What the app's jobs tell a person when something stops them, in words.
import { ServiceClientError, explainClientError } from '../client/client-errors.ts';

export const rereadBeforeSending =
  'This list was read again before sending: the do-not-mail list, the rules or the kind of key changed since it was read. ' +
  'Check what it costs now, then start again.';

export function userMessage(error: unknown): string {
  if (error instanceof ServiceClientError) return explainClientError(error);
  return error instanceof Error ? error.message : String(error);
}
