// Idempotency-Key (assumed semantics, see wire assumptions): the same key and body within 24 hours
// replays the first answer and does nothing twice; the same key with another body is a 409.
import { createHash } from 'node:crypto';
import { assumedErrors, idempotencyWindowMs } from '../../wire/assumptions.ts';
import { livingProcessesSql } from './service-processes-store.ts';
import type { SqlConnection } from '../../storage/sql-connection.ts';
import { ServiceError } from '../service-errors.ts';

export type StoredResponse = { status: number; body: string };

export function requestHash(...parts: (string | Buffer)[]): string {
  const hash = createHash('sha256');
  for (const part of parts) hash.update(part).update('\0');
  return hash.digest('hex');
}

/** A stored answer to replay, or null after claiming the key for this request. */
export async function claimIdempotencyKey(
  db: SqlConnection,
  keyId: string,
  idemKey: string,
  hash: string,
  now: number,
  /** The process answering: if it goes before it settles the key, another lets the key go. */
  owner: string,
): Promise<StoredResponse | null> {
  // One transaction: two requests with the same new key must not both claim it.
  return db.transaction(async (tx) => {
    await tx.run('DELETE FROM idempotency WHERE created_at < ?', [now - idempotencyWindowMs]);
    const existing = (await tx.get(
      'SELECT request_hash, status, body FROM idempotency WHERE key_id = ? AND idem_key = ?',
      [keyId, idemKey],
    )) as { request_hash: string; status: number | null; body: string | null } | undefined;
    if (existing) {
      if (existing.request_hash !== hash) {
        throw new ServiceError(
          'conflict',
          assumedErrors.idempotencyKeyReused,
          'This Idempotency-Key was used with a different request.',
        );
      }
      if (existing.status === null) {
        throw new ServiceError(
          'conflict',
          'idempotency_key_in_use',
          'A request with this Idempotency-Key is still being processed. Retry shortly.',
        );
      }
      return { status: existing.status, body: existing.body ?? '' };
    }
    await tx.run('INSERT INTO idempotency (key_id, idem_key, request_hash, created_at, owner) VALUES (?, ?, ?, ?, ?)', [
      keyId,
      idemKey,
      hash,
      now,
      owner,
    ]);
    return null;
  });
}

/** Keeps the answer for replays; a server error is not kept, so a retry can still succeed. */
export async function settleIdempotencyKey(
  db: SqlConnection,
  keyId: string,
  idemKey: string,
  response: StoredResponse,
): Promise<void> {
  if (response.status >= 500) {
    await db.run('DELETE FROM idempotency WHERE key_id = ? AND idem_key = ?', [keyId, idemKey]);
    return;
  }
  await db.run('UPDATE idempotency SET status = ?, body = ? WHERE key_id = ? AND idem_key = ?', [
    response.status,
    response.body,
    keyId,
    idemKey,
  ]);
}

/** A request that was mid-way when its process went will never be answered: let its retry run. */
export async function releaseUnsettledKeys(db: SqlConnection): Promise<void> {
  await db.run(
    `DELETE FROM idempotency WHERE status IS NULL AND (owner IS NULL OR owner NOT IN (${livingProcessesSql}))`,
  );
}
