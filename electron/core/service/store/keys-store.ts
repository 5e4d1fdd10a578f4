// API keys: shown in full once, stored only as a hash, several active at once, revocable.
import { createHash, randomBytes } from 'node:crypto';
import { assumedErrors } from '../../wire/assumptions.ts';
import { errorCodes, keyModeOf, keyPrefixes, maskKey, type KeyMode } from '../../wire/spec.ts';
import type { SqlConnection } from '../../storage/sql-connection.ts';
import { newId } from './schema.ts';
import type { RateLimitRule, RateLimitOperation } from '../service-config.ts';
import { ServiceError } from '../service-errors.ts';

export type ApiKeyRecord = {
  id: string;
  mode: KeyMode;
  label: string;
  masked: string;
  state: 'active' | 'revoked';
  createdAt: number;
  lastUsedAt: number | null;
  revokedAt: number | null;
  rateLimits: Partial<Record<RateLimitOperation, RateLimitRule>>;
};

type KeyRow = {
  id: string;
  mode: KeyMode;
  label: string;
  masked: string;
  state: 'active' | 'revoked';
  created_at: number;
  last_used_at: number | null;
  revoked_at: number | null;
  rate_limits: string | null;
};

const lastUsedEveryMs = 60_000;

function hashKey(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}

function toRecord(row: KeyRow): ApiKeyRecord {
  return {
    id: row.id,
    mode: row.mode,
    label: row.label,
    masked: row.masked,
    state: row.state,
    createdAt: row.created_at,
    lastUsedAt: row.last_used_at,
    revokedAt: row.revoked_at,
    rateLimits: row.rate_limits ? JSON.parse(row.rate_limits) : {},
  };
}

export async function createApiKey(
  db: SqlConnection,
  now: number,
  mode: KeyMode,
  label: string,
): Promise<{ key: string; record: ApiKeyRecord }> {
  // Keys are long random secrets, so a plain SHA-256 is enough to store them safely.
  const key = `${keyPrefixes[mode]}${randomBytes(24).toString('base64url')}`;
  const id = newId('key');
  await db.run('INSERT INTO api_keys (id, mode, label, hash, masked, created_at) VALUES (?, ?, ?, ?, ?, ?)', [
    id,
    mode,
    label,
    hashKey(key),
    maskKey(key),
    now,
  ]);
  return { key, record: (await getApiKey(db, id))! };
}

async function getApiKey(db: SqlConnection, id: string): Promise<ApiKeyRecord | undefined> {
  const row = (await db.get('SELECT * FROM api_keys WHERE id = ?', [id])) as KeyRow | undefined;
  return row && toRecord(row);
}

export async function listApiKeys(db: SqlConnection): Promise<ApiKeyRecord[]> {
  return ((await db.all('SELECT * FROM api_keys ORDER BY created_at')) as KeyRow[]).map(toRecord);
}

export async function revokeApiKey(db: SqlConnection, id: string, now: number): Promise<ApiKeyRecord> {
  const changed = await db.run(
    "UPDATE api_keys SET state = 'revoked', revoked_at = ? WHERE id = ? AND state = 'active'",
    [now, id],
  );
  const record = await getApiKey(db, id);
  if (!record) throw new Error(`No key ${id}`);
  if (changed.changes === 0 && record.state !== 'revoked') throw new Error(`Key ${id} could not be revoked`);
  return record;
}

export async function setKeyRateLimits(
  db: SqlConnection,
  id: string,
  limits: Partial<Record<RateLimitOperation, RateLimitRule>>,
): Promise<ApiKeyRecord> {
  await db.run('UPDATE api_keys SET rate_limits = ? WHERE id = ?', [JSON.stringify(limits), id]);
  const record = await getApiKey(db, id);
  if (!record) throw new Error(`No key ${id}`);
  return record;
}

/** The key named by an `Authorization: Bearer …` header, or the spec's 401. */
export async function authenticate(
  db: SqlConnection,
  authorization: string | undefined,
  now: number,
): Promise<ApiKeyRecord> {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '');
  if (!match) {
    throw new ServiceError(
      'authentication',
      assumedErrors.missingApiKey,
      'No API key was sent. Send it as `Authorization: Bearer <key>`.',
    );
  }
  const key = match[1]!;
  const row = keyModeOf(key)
    ? ((await db.get('SELECT * FROM api_keys WHERE hash = ?', [hashKey(key)])) as KeyRow | undefined)
    : undefined;
  if (!row || row.state !== 'active') {
    const message = row ? 'This API key has been revoked.' : 'The API key does not match any key.';
    throw new ServiceError('authentication', errorCodes.invalidApiKey, message);
  }
  if (row.last_used_at === null || now - row.last_used_at >= lastUsedEveryMs) {
    await db.run('UPDATE api_keys SET last_used_at = ? WHERE id = ?', [now, row.id]);
    row.last_used_at = now;
  }
  return toRecord(row);
}
