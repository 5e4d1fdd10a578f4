// When a verdict kept from an earlier list may stand for a new one, and when it must be checked again.
// A mailbox that refused mail rarely comes back; one that took mail, or a domain that takes all, may close.
// `unknown` says nothing about the address, so it is never reused. Demo (sandbox) verdicts and live ones
// are kept apart: neither is ever handed out for the other.

const day = 24 * 60 * 60_000;

/** How long each verdict is reused by default, in days. */
export const defaultMaxAgeDays: Readonly<Record<string, number>> = { invalid: 90, valid: 30, catch_all: 30 };

/**
 * The oldest a kept verdict of each kind may be (a time, in ms) to be reused at `now`; `maxAgeDays`, when
 * given (`--max-age`), stands for every kind instead.
 */
export function freshSince(now: number, maxAgeDays?: number): Record<string, number> {
  return Object.fromEntries(
    Object.entries(defaultMaxAgeDays).map(([result, days]) => [result, now - (maxAgeDays ?? days) * day]),
  );
}
