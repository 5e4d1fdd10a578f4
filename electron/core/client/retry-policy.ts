// The one place that decides, after a try that did not succeed, whether to try again and after how long.
// The spec's rules: on 429 wait Retry-After plus jitter of 0–3 s, widening to 6 s then 12 s, at most five
// tries; transient failures (no connection, a timeout, an answer cut off, 5xx) back off with capped exponential jitter and
// end as `unavailable`; every other answer (400, 401, 402, any 4xx) is final at once.
import { maxTries, retryAfterJitterSeconds } from '../wire/spec.ts';
import {
  errorFromAnswer,
  rateLimitedError,
  unavailableError,
  type FailedAnswer,
  type KeyMasking,
  type ServiceClientError,
} from './client-errors.ts';
import type { Clock } from './clock.ts';
import { isLastingNetworkFailure } from './network-failures.ts';

/** What happened on one try that did not succeed. `call` names it as errors do, e.g. `GET /batches/{id}`. */
export type Outcome = { call: string } & (
  | { kind: 'unreachable'; error: unknown } // fetch threw: refused, reset, unknown host, TLS
  | { kind: 'timeout'; afterMs: number }
  // An answer whose headers came but whose body ended early or does not parse (a proxy timing out mid-body).
  | { kind: 'cut'; status: number; detail: string }
  | ({ kind: 'answer'; retryAfter: string | null } & FailedAnswer)
);

export type Decision =
  /** Wait `waitMs`, then try again; `pauseBudget`: the wait holds back every caller of this operation on the key. */
  { action: 'retry'; waitMs: number; pauseBudget: boolean } | { action: 'fail'; error: ServiceClientError };

export type RetryPolicySettings = {
  /** Retries after a connection failure, a timeout or a 5xx. */
  maxTransientRetries: number;
  random: () => number;
  clock: Pick<Clock, 'now'>;
  /** The service's host, as errors name it. */
  where: string;
  keys: KeyMasking;
};

/** `tries`: what each earlier try of the same call came to, oldest first (empty on the first failure). */
export type Decide = (outcome: Outcome, tries: readonly Outcome[]) => Decision;

/** Sorts an outcome, in one place: a 429; transient (no answer, or a 5xx: the service may be back in a moment);
 * or final (any other answer: 400, 401, 402, 404, 501, … would come again on another try). */
function classify(outcome: Outcome): 'rateLimited' | 'transient' | 'final' {
  // 501 Not Implemented is no passing fault: the service does not have that call, and will not on a retry.
  if (outcome.kind !== 'answer' || (outcome.status >= 500 && outcome.status !== 501)) return 'transient';
  return outcome.status === 429 ? 'rateLimited' : 'final';
}

export function createRetryPolicy(settings: RetryPolicySettings): Decide {
  const { maxTransientRetries, random, clock, where, keys } = settings;
  return (outcome, tries) => {
    const kind = classify(outcome);
    /** Tries of this kind, this one included. */
    const count = tries.filter((earlier) => classify(earlier) === kind).length + 1;
    if (outcome.kind === 'answer' && kind === 'final') {
      return { action: 'fail', error: errorFromAnswer(outcome.call, outcome, keys) };
    }
    if (outcome.kind === 'answer' && kind === 'rateLimited') {
      if (count >= maxTries) return { action: 'fail', error: rateLimitedError(outcome.call) };
      const waitMs = retryAfterWaitMs(parseRetryAfter(outcome.retryAfter, clock.now()), count, random);
      return { action: 'retry', waitMs, pauseBudget: true };
    }
    // A failure every try would meet (a blocked port, a certificate) ends at once, with no wait for nothing.
    const lasting = outcome.kind === 'unreachable' && isLastingNetworkFailure(outcome.error);
    if (lasting || count > maxTransientRetries) {
      return { action: 'fail', error: unavailableError(outcome.call, where, outcome, tries.length + 1, keys) };
    }
    return { action: 'retry', waitMs: backoffWaitMs(count, random), pauseBudget: false };
  };
}

/** Spec: on 429 wait Retry-After plus jitter of 0–3 s, widening to 6 s then 12 s on later tries. `retry` counts from 1. */
function retryAfterWaitMs(retryAfterSeconds: number, retry: number, random: () => number): number {
  const widths = retryAfterJitterSeconds;
  const width = widths[Math.min(retry, widths.length) - 1]!;
  return Math.max(0, retryAfterSeconds) * 1000 + random() * width * 1000;
}

/** Capped exponential backoff with full jitter, for connection failures, timeouts and 5xx. */
function backoffWaitMs(retry: number, random: () => number, baseMs = 500, capMs = 30_000): number {
  return random() * Math.min(capMs, baseMs * 2 ** (retry - 1));
}

/** Retry-After in seconds, or as an HTTP date; a missing or odd value counts as one second. */
export function parseRetryAfter(value: string | null, nowMs: number): number {
  if (value === null) return 1;
  if (/^\d+(\.\d+)?$/.test(value.trim())) return Number(value);
  const date = Date.parse(value);
  return Number.isNaN(date) ? 1 : Math.max(0, (date - nowMs) / 1000);
}
