// Writes that run once per Idempotency-Key (assumed semantics, see wire assumptions), and the JSON body
// reader the writes share.
import type { IncomingMessage } from 'node:http';
import { readLimitedBody } from '../../streams/size-limit.ts';
import { headers } from '../../wire/spec.ts';
import { invalidRequest } from '../service-errors.ts';
import { claimIdempotencyKey, settleIdempotencyKey, type StoredResponse } from '../store/idempotency-store.ts';
import { errorAnswer, send, toServiceError } from './error-responses.ts';
import type { SqlConnection } from '../../storage/sql-connection.ts';
import type { Call, ServiceContext } from './service-context.ts';

/** Stores a request's answer for replays, on the connection (or transaction) given. */
export type Settle = (tx: SqlConnection, stored: StoredResponse) => Promise<void>;

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
  /**
   * `settle(tx, stored)` stores the answer inside the caller's own transaction (`tx`), so what the
   * request did and the answer that replays it are committed together.
   */
  work: (settle: Settle) => Promise<StoredResponse>,
): Promise<void> {
  const idemKey = call.request.headers[headers.idempotencyKey.toLowerCase()];
  const { db, config } = context;
  if (typeof idemKey !== 'string' || idemKey === '') {
    send(call.response, await work(async () => {}));
    return;
  }
  if (idemKey.length > 255) {
    throw invalidRequest('invalid_idempotency_key', 'An Idempotency-Key is at most 255 characters.');
  }
  // Scoped to the account's mode, not the key: a retry after a key rotation is still recognised.
  const scope = `account:${call.key.mode}`;
  const replay = await claimIdempotencyKey(db, scope, idemKey, hash, config.now(), context.processId);
  if (replay) {
    send(call.response, replay, true);
    return;
  }
  let settled = false;
  const settle: Settle = async (tx, stored) => {
    await settleIdempotencyKey(tx, scope, idemKey, stored);
    settled = true;
  };
  try {
    const stored = await work(settle);
    if (!settled) await settle(db, stored);
    send(call.response, stored);
  } catch (error) {
    const known = toServiceError(error);
    await settleIdempotencyKey(db, scope, idemKey, known ? errorAnswer(known) : { status: 500, body: '' });
    throw error;
  }
}
