// The waits between tries, as pure functions of the try number and a random source.
import { retryAfterJitterSeconds } from '../wire/spec.ts';

/** Spec: on 429 wait Retry-After plus jitter of 0–3 s, widening to 6 s then 12 s on later tries. `retry` counts from 1. */
export function retryAfterWaitMs(retryAfterSeconds: number, retry: number, random: () => number): number {
  const widths = retryAfterJitterSeconds;
  const width = widths[Math.min(retry, widths.length) - 1]!;
  return Math.max(0, retryAfterSeconds) * 1000 + random() * width * 1000;
}

/** Capped exponential backoff with full jitter, for connection failures, timeouts and 5xx. */
export function backoffWaitMs(retry: number, random: () => number, baseMs = 500, capMs = 30_000): number {
  return random() * Math.min(capMs, baseMs * 2 ** (retry - 1));
}

/** Retry-After in seconds, or as an HTTP date; a missing or odd value counts as one second. */
export function parseRetryAfter(value: string | null, nowMs: number): number {
  if (value === null) return 1;
  if (/^\d+(\.\d+)?$/.test(value.trim())) return Number(value);
  const date = Date.parse(value);
  return Number.isNaN(date) ? 1 : Math.max(0, (date - nowMs) / 1000);
}
