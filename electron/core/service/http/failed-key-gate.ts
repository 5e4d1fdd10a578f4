// Failed keys, counted per client address in this process's memory: past the limit an address is refused
// with 429 before its key is looked up, so guessing keys costs the database nothing (no read, no write),
// and a good key from that address works again when the window passes. Each API process counts its own.

/** Sift's own ceiling: failed keys per client address per window. */
const failedKeyRule = { limit: 60, windowSeconds: 60 };

/** Addresses remembered at once: a flood from many addresses forgets the oldest first. */
const maxAddresses = 10_000;

type FailedKeyCount = { limit: number; remaining: number; resetSeconds: number; retryAfterSeconds: number };

export type FailedKeyGate = {
  /** The count of `address`'s window, with `allowed` false once its failures have reached the limit. */
  check(address: string, now: number): FailedKeyCount & { allowed: boolean };
  /** Counts one failed key from `address`. */
  failed(address: string, now: number): FailedKeyCount;
};

export function createFailedKeyGate(rule = failedKeyRule): FailedKeyGate {
  const windowMs = rule.windowSeconds * 1000;
  const windows = new Map<string, { start: number; failures: number }>();
  const windowOf = (address: string, now: number) => {
    const start = Math.floor(now / windowMs) * windowMs;
    const current = windows.get(address);
    return current && current.start === start ? current : { start, failures: 0 };
  };
  const countOf = (window: { start: number; failures: number }, now: number): FailedKeyCount => ({
    limit: rule.limit,
    remaining: Math.max(0, rule.limit - window.failures),
    resetSeconds: Math.ceil((window.start + windowMs) / 1000),
    retryAfterSeconds: Math.max(1, Math.ceil((window.start + windowMs - now) / 1000)),
  });
  return {
    check(address, now) {
      const window = windowOf(address, now);
      return { ...countOf(window, now), allowed: window.failures < rule.limit };
    },
    failed(address, now) {
      const window = windowOf(address, now);
      window.failures += 1;
      windows.delete(address);
      windows.set(address, window);
      if (windows.size > maxAddresses) windows.delete(windows.keys().next().value!);
      return countOf(window, now);
    },
  };
}
