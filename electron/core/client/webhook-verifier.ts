// For people who receive the service's events: check `Service-Signature` against the raw body
// before any JSON parsing, and drop repeats of an event id.
import { createHmac, timingSafeEqual } from 'node:crypto';
import { eventEnvelopeSchema, signatureToleranceSeconds, type EventEnvelope } from '../wire/spec.ts';

type WebhookFailure =
  'missing_header' | 'malformed_header' | 'timestamp_out_of_tolerance' | 'no_matching_signature' | 'invalid_payload';

class WebhookVerificationError extends Error {
  readonly reason: WebhookFailure;
  constructor(reason: WebhookFailure, message: string) {
    super(message);
    this.name = 'WebhookVerificationError';
    this.reason = reason;
  }
}

export type VerifyWebhookOptions = {
  /** The request body exactly as received: a re-serialised body does not match. */
  payload: Uint8Array | string;
  header: string | null | undefined;
  /** Every secret in use: during a rotation, an event signed with either is accepted. */
  secrets: readonly string[];
  toleranceSeconds?: number;
  nowSeconds?: number;
};

export function verifyWebhook(options: VerifyWebhookOptions): EventEnvelope {
  if (!options.header) throw new WebhookVerificationError('missing_header', 'The Service-Signature header is missing.');
  let timestamp: number | undefined;
  const signatures: Buffer[] = [];
  for (const part of options.header.split(',')) {
    const eq = part.indexOf('=');
    const name = part.slice(0, eq).trim();
    const value = part.slice(eq + 1).trim();
    if (name === 't' && /^\d+$/.test(value)) timestamp = Number(value);
    else if (name === 'v1' && /^[0-9a-f]{64}$/i.test(value)) signatures.push(Buffer.from(value.toLowerCase(), 'hex'));
  }
  if (timestamp === undefined || signatures.length === 0) {
    throw new WebhookVerificationError(
      'malformed_header',
      'The Service-Signature header has no timestamp or no v1 signature.',
    );
  }
  const now = options.nowSeconds ?? Math.floor(Date.now() / 1000);
  const tolerance = options.toleranceSeconds ?? signatureToleranceSeconds;
  if (Math.abs(now - timestamp) > tolerance) {
    throw new WebhookVerificationError(
      'timestamp_out_of_tolerance',
      `The signature's timestamp is more than ${tolerance} s away from now.`,
    );
  }
  const body =
    typeof options.payload === 'string' ? Buffer.from(options.payload, 'utf8') : Buffer.from(options.payload);
  const matches = options.secrets.some((secret) => {
    const expected = createHmac('sha256', secret).update(`${timestamp}.`).update(body).digest();
    // Every candidate is compared in full, in constant time.
    return signatures.map((signature) => timingSafeEqual(signature, expected)).includes(true);
  });
  if (!matches) throw new WebhookVerificationError('no_matching_signature', 'No signature matches any of the secrets.');
  let event: unknown;
  try {
    event = JSON.parse(body.toString('utf8'));
  } catch {
    throw new WebhookVerificationError('invalid_payload', 'The signed body is not JSON.');
  }
  const parsed = eventEnvelopeSchema.safeParse(event);
  if (!parsed.success)
    throw new WebhookVerificationError('invalid_payload', 'The signed body is not an event envelope.');
  return parsed.data;
}

/** Remembers event ids so a repeated delivery is answered 2xx but handled once. */
export function createEventDeduplicator(maxEntries = 10_000) {
  const seen = new Set<string>();
  return {
    /** True the first time an id is seen, false for every repeat. */
    firstSighting(eventId: string): boolean {
      if (seen.has(eventId)) return false;
      seen.add(eventId);
      if (seen.size > maxEntries) seen.delete(seen.values().next().value!);
      return true;
    },
  };
}
