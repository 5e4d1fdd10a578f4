// Leases on shared work (a batch's chunks, a live domain): short, and renewed by their holder while it
// works, so that a worker that dies is noticed within one lease of its last renewal and its work taken
// over, while a slow round of a living worker keeps what it holds.

/** A lease is renewed this many times within its length: one late renewal does not lose it. */
const renewalsPerLease = 3;

export const renewEveryMs = (leaseMs: number) => Math.max(50, Math.floor(leaseMs / renewalsPerLease));

/**
 * Runs `work`, renewing its lease until it ends. A renewal that fails is told, not thrown: at worst the
 * lease runs out and another worker takes the work up, which writes and bills it once all the same.
 */
export async function whileRenewing<T>(
  leaseMs: number,
  renew: () => Promise<void>,
  work: () => Promise<T>,
): Promise<T> {
  let renewal: Promise<void> | undefined;
  const timer = setInterval(() => {
    renewal ??= renew()
      .catch((error: unknown) => console.error('sift service: could not renew a work lease:', error))
      .finally(() => (renewal = undefined));
  }, renewEveryMs(leaseMs));
  try {
    return await work();
  } finally {
    clearInterval(timer);
    await renewal;
  }
}

/** Said when a worker takes up work whose holder stopped renewing its lease (a crash, a lost machine). */
export function tellTakeover(what: string, from: string): void {
  console.error(`sift service: took over ${what} from ${from}, whose lease ran out.`);
}
