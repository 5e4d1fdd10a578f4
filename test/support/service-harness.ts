// Starts Sift's embedded verification service on loopback with a throwaway data folder,
// and gives tests a small `api` helper that speaks raw HTTP to it.
import { randomBytes } from 'node:crypto';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inject } from 'vitest';
import { createDatabase } from './postgres-server.ts';
import type {
  RateLimitOperation,
  RateLimitRule,
  ServiceOverrides,
} from '../../electron/core/service/service-config.ts';
import { sandboxEngine } from '../../electron/core/service/engines/sandbox-engine.ts';
import {
  openServiceStore,
  startVerificationService,
  type VerificationService,
} from '../../electron/core/service/verification-service.ts';

/** Which database this run's services use: the suite runs once on SQLite and once on PostgreSQL. */
export const testDatabase: 'sqlite' | 'postgres' =
  process.env.SIFT_TEST_DATABASE === 'postgres' ? 'postgres' : 'sqlite';

/** Where a new test service keeps its data: a fresh folder, and on the PostgreSQL run a fresh database. */
export async function testServicePlace(): Promise<{ dataDir: string; database?: string }> {
  const dataDir = await mkdtemp(join(tmpdir(), 'sift-service-'));
  if (testDatabase === 'sqlite') return { dataDir };
  const name = `sift_${randomBytes(6).toString('hex')}`;
  return { dataDir, database: await createDatabase(inject('postgresAdminUrl'), name) };
}

/**
 * A key made straight in a service's database (before, or while, other processes run the service), with
 * its rate limits, a top-up of the account and a webhook endpoint if asked; answers the key.
 */
export async function prepareKey(
  place: { dataDir: string; database?: string },
  options: {
    mode: 'live' | 'sandbox';
    limits: Partial<Record<RateLimitOperation, RateLimitRule>>;
    topUp?: number;
    webhookUrl?: string;
  },
): Promise<string> {
  // A webhook receiver of a test listens on loopback: allowed, as --allow-private-webhooks does.
  const store = await openServiceStore({ ...place, allowPrivateWebhooks: true });
  try {
    const { key, record } = await store.dashboard.createKey(options.mode, 'test');
    await store.dashboard.setKeyRateLimits(record.id, options.limits);
    if (options.topUp) await store.dashboard.topUp(options.topUp);
    if (options.webhookUrl) await store.dashboard.createWebhookEndpoint(options.webhookUrl);
    return key;
  } finally {
    await store.db.close();
  }
}

export async function startTestService(overrides: ServiceOverrides = {}): Promise<VerificationService> {
  // Live keys get the sandbox's scripted verdicts here: these tests are about the API, not mail servers
  // (the local SMTP engine has its own tests against mail servers on loopback).
  return startVerificationService({ ...(await testServicePlace()), ...overrides }, sandboxEngine);
}

// Tests read whatever JSON came back, field by field, and assert on it.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type ApiResponse = { status: number; headers: Headers; body: any; text: string };

export function apiClient(service: { baseUrl: string }, key?: string) {
  return async (
    method: string,
    path: string,
    body?: unknown,
    extraHeaders: Record<string, string> = {},
  ): Promise<ApiResponse> => {
    const response = await fetch(`${service.baseUrl}${path}`, {
      method,
      headers: {
        ...(key ? { Authorization: `Bearer ${key}` } : {}),
        ...(body !== undefined && typeof body !== 'string' ? { 'Content-Type': 'application/json' } : {}),
        ...extraHeaders,
      },
      body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
    });
    const text = await response.text();
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      // not JSON: tests read `text`
    }
    return { status: response.status, headers: response.headers, body: parsed, text };
  };
}

/** Polls until `check` passes or `timeoutMs` runs out; bounded, so a broken service fails the test instead of hanging it. */
export async function waitFor<T>(
  check: () => Promise<T | undefined | false> | T | undefined | false,
  timeoutMs = 10_000,
  everyMs = 25,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`Condition not met within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}

export function addresses(count: number, domain = 'example.com', prefix = 'user'): string[] {
  return Array.from({ length: count }, (_, i) => `${prefix}${i}@${domain}`);
}

/**
 * What a sync test runs `sift` with: a live key of `service` (its batch status unthrottled, `credits` bought)
 * and a data folder of its own, beside the tool's secret in `secret`.
 */
export async function syncTestEnv(
  service: VerificationService,
  credits: number,
  secret: Record<string, string>,
): Promise<Record<string, string>> {
  const { key, record } = await service.dashboard.createKey('live', 'sync');
  // A suite syncs many small lists in a minute: the spec's 5 uploads a minute would have it wait on 429s.
  await service.dashboard.setKeyRateLimits(record.id, {
    batchStatus: { limit: 10_000, windowSeconds: 60 },
    uploadFile: { limit: 1_000, windowSeconds: 60 },
    createBatch: { limit: 1_000, windowSeconds: 60 },
  });
  await service.dashboard.topUp(credits);
  const dataDir = join(await mkdtemp(join(tmpdir(), 'sift-sync-')), 'data');
  return { SIFT_DATA_DIR: dataDir, SIFT_API_KEY: key, ...secret };
}
