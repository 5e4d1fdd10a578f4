// What ../shared/spec/service-interface.md shows, followed exactly, with no assumption.
// The details the spec leaves "not shown" are in ./assumptions.ts, and only there.
import { z } from 'zod';

export const apiPrefix = '/v1';

export const paths = {
  verify: '/verify',
  batches: '/batches',
  batch: (id: string) => `/batches/${encodeURIComponent(id)}`,
  results: (id: string) => `/batches/${encodeURIComponent(id)}/results`,
  files: '/files',
  account: '/account',
} as const;

export const headers = {
  authorization: 'Authorization',
  idempotencyKey: 'Idempotency-Key',
  /** Spec: "provisional ... the name is under review". Renaming it means changing this line. */
  serviceVersion: 'Service-Version',
  rateLimitLimit: 'X-RateLimit-Limit',
  rateLimitRemaining: 'X-RateLimit-Remaining',
  rateLimitReset: 'X-RateLimit-Reset',
  retryAfter: 'Retry-After',
  signature: 'Service-Signature',
} as const;

/** Spec: "filter (provisional) ... parameter name not final". Renaming it means changing this line. */
export const resultsFilterParam = 'filter';

export const keyPrefixes = { live: 'svc_live_', sandbox: 'svc_test_' } as const;
export type KeyMode = keyof typeof keyPrefixes;

export function keyModeOf(key: string): KeyMode | null {
  if (key.startsWith(keyPrefixes.live) && key.length > keyPrefixes.live.length) return 'live';
  if (key.startsWith(keyPrefixes.sandbox) && key.length > keyPrefixes.sandbox.length) return 'sandbox';
  return null;
}

/** Verdicts the spec names. Others may come: code must pass unknown values through, never drop them. */
export const namedResults = ['valid', 'invalid', 'catch_all', 'unknown'] as const;
export type NamedResult = (typeof namedResults)[number];

/** A result row: `email`, `result`, `billed`. Extra fields are allowed and ignored by readers. */
export const resultRowSchema = z.looseObject({ email: z.string(), result: z.string(), billed: z.boolean() });
export type ResultRow = z.infer<typeof resultRowSchema>;

export const resultsPageSchema = z.looseObject({
  data: z.array(resultRowSchema),
  has_more: z.boolean(),
  next_cursor: z.string().nullable(),
});
export type ResultsPage = z.infer<typeof resultsPageSchema>;

export const resultsPageLimits = { min: 1, max: 1000, default: 100 } as const;

export const summaryFields = [
  'valid',
  'invalid',
  'catch_all',
  'unknown',
  'duplicates',
  'role',
  'disposable',
  'billed',
] as const;
export const batchSummarySchema = z.looseObject(
  Object.fromEntries(summaryFields.map((field) => [field, z.number().int()])) as Record<
    (typeof summaryFields)[number],
    z.ZodNumber
  >,
);
export type BatchSummary = z.infer<typeof batchSummarySchema>;

/** The status call: "Returns at least status, submitted and unique". `complete` is the one named state. */
export const batchStatusSchema = z.looseObject({
  id: z.string(),
  status: z.string(),
  submitted: z.number().int(),
  unique: z.number().int(),
});
export const completeStatus = 'complete';

export const errorBodySchema = z.looseObject({
  error: z.looseObject({ type: z.string(), code: z.string().optional(), message: z.string().optional() }),
});
export type ErrorBody = { error: { type: string; code: string; message: string } };

export const errorTypes = { authentication: 'authentication_error' } as const;
export const errorCodes = { invalidApiKey: 'invalid_api_key' } as const;

export const defaultRateLimits = {
  verify: { limit: 100, windowSeconds: 1 },
  createBatch: { limit: 10, windowSeconds: 60 },
  batchStatus: { limit: 60, windowSeconds: 60 },
  uploadFile: { limit: 5, windowSeconds: 60 },
} as const;

/** Spec: "on 429, wait Retry-After seconds plus random jitter (0 to 3 s, widening on later tries to 6 s then 12 s), at most five tries." */
export const retryAfterJitterSeconds = [3, 6, 12] as const;
export const maxTries = 5;
/** Spec: "Slow down when X-RateLimit-Remaining falls below about a tenth of X-RateLimit-Limit, pausing until X-RateLimit-Reset." */
export const slowDownFraction = 0.1;

export const eventEnvelopeSchema = z.looseObject({
  id: z.string().regex(/^evt_/),
  type: z.string(),
  created_at: z.string(),
  data: z.looseObject({}),
});
export type EventEnvelope = z.infer<typeof eventEnvelopeSchema>;

/** Spec: "the reference verifier rejects timestamps more than 300 seconds away from the current time". */
export const signatureToleranceSeconds = 300;

/** How Sift shows a key anywhere a person or a log could see it: prefix and last four, e.g. `svc_live_…abcd`. */
export function maskKey(key: string): string {
  const mode = keyModeOf(key);
  const prefix = mode ? keyPrefixes[mode] : '';
  const tail = key.length - prefix.length >= 8 ? key.slice(-4) : '';
  return `${prefix}…${tail}`;
}
