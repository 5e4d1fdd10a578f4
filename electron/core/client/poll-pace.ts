// How long to wait between asking a running batch how it is: soon at first, so a batch that ends in a
// moment (a short list, the last part of a long one) is seen ending then, not up to a whole interval
// later; then at the interval asked for. It costs a service at most a few more calls per batch.

/** The first wait, doubled at each wait after it until it reaches the interval. */
const firstWaitMs = 50;

/** The waits of one batch's polling, one per call: 50, 100, 200, 400 ms, …, then `intervalMs` each time. */
export function pollPace(intervalMs: number): () => number {
  let wait = Math.min(firstWaitMs, intervalMs);
  return () => {
    const now = wait;
    wait = Math.min(wait * 2, intervalMs);
    return now;
  };
}
