// Idempotency-Key (assumed semantics, see wire assumptions): the same key and body within 24 hours
// replays the first answer and does nothing twice; the same key with another body is a 409.
import { createHash } from 'node:crypto';
import { assumedErrors, idempotencyWindowMs } from '../../wire/assumptions.ts';
import { sql, type Database } from '../../storage/sqlite.ts';
import { ServiceError } from '../service-errors.ts';

export type StoredResponse = { status: number; body: string };

export function requestHash(...parts: (string | Buffer)[]): string {
  const hash = createHash('sha256');
  for (const part of parts) hash.update(part).update('\0');
  return hash.digest('hex');
}

/** A stored answer to replay, or null after claiming the key for this request. */
export function claimIdempotencyKey(
  db: Database,
  keyId: string,
  idemKey: string,
  hash: string,
  now: number,
): StoredResponse | null {
  sql(db, 'DELETE FROM idempotency WHERE created_at < ?').run(now - idempotencyWindowMs);
  const existing = sql(db, 'SELECT request_hash, status, body FROM idempotency WHERE key_id = ? AND idem_key = ?').get(
    keyId,
    idemKey,
  ) as { request_hash: string; status: number | null; body: string | null } | undefined;
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
  sql(db, 'INSERT INTO idempotency (key_id, idem_key, request_hash, created_at) VALUES (?, ?, ?, ?)').run(
    keyId,
    idemKey,
    hash,
    now,
  );
  return null;
}

/** Keeps the answer for replays; a server error is not kept, so a retry can still succeed. */
export function settleIdempotencyKey(db: Database, keyId: string, idemKey: string, response: StoredResponse): void {
  if (response.status >= 500) {
    sql(db, 'DELETE FROM idempotency WHERE key_id = ? AND idem_key = ?').run(keyId, idemKey);
    return;
  }
  sql(db, 'UPDATE idempotency SET status = ?, body = ? WHERE key_id = ? AND idem_key = ?').run(
    response.status,
    response.body,
    keyId,
    idemKey,
  );
}

/** After a restart, a request that was mid-way never answered: let its retry run. */
export function releaseUnsettledKeys(db: Database): void {
  sql(db, 'DELETE FROM idempotency WHERE status IS NULL').run();
}
