// Writes that run once per Idempotency-Key (assumed semantics, see wire assumptions), and the JSON body
// reader the writes share.
import type { IncomingMessage } from 'node:http';
import { readLimitedBody } from '../../streams/size-limit.ts';
import { headers } from '../../wire/spec.ts';
import { invalidRequest } from '../service-errors.ts';
import { claimIdempotencyKey, settleIdempotencyKey, type StoredResponse } from '../store/idempotency-store.ts';
import { errorAnswer, send, toServiceError } from './error-responses.ts';
import type { Call, ServiceContext } from './service-context.ts';

export async function readJson(request: IncomingMessage, maxBytes: number): Promise<{ text: string; value: unknown }> {
  const text = (await readLimitedBody(request, maxBytes)).toString('utf8');
  try {
    return { text, value: JSON.parse(text) };
  } catch {
    throw invalidRequest('invalid_json', 'The request body is not valid JSON.');
  }
}

/**
 * Runs a write once per Idempotency-Key: a replay answers the stored response without running `work`.
 * `work` answers the response to store and send; a service error it throws is stored and sent too.
 */
export async function idempotent(
  context: ServiceContext,
  call: Call,
  hash: string,
  work: (settle: (stored: StoredResponse) => void) => Promise<StoredResponse>,
): Promise<void> {
  const idemKey = call.request.headers[headers.idempotencyKey.toLowerCase()];
  const { db, config } = context;
  if (typeof idemKey !== 'string' || idemKey === '') {
    send(call.response, await work(() => {}));
    return;
  }
  if (idemKey.length > 255) {
    throw invalidRequest('invalid_idempotency_key', 'An Idempotency-Key is at most 255 characters.');
  }
  // Scoped to the account's mode, not the key: a retry after a key rotation is still recognised.
  const scope = `account:${call.key.mode}`;
  const replay = claimIdempotencyKey(db, scope, idemKey, hash, config.now());
  if (replay) {
    send(call.response, replay, true);
    return;
  }
  let settled = false;
  const settle = (stored: StoredResponse) => {
    settleIdempotencyKey(db, scope, idemKey, stored);
    settled = true;
  };
  try {
    const stored = await work(settle);
    if (!settled) settle(stored);
    send(call.response, stored);
  } catch (error) {
    const known = toServiceError(error);
    settleIdempotencyKey(db, scope, idemKey, known ? errorAnswer(known) : { status: 500, body: '' });
    throw error;
  }
}
