// The pace a mail server allows, learned from its rate replies as congestion control learns a link's:
// servers ration recipients per client in windows (Postfix's smtpd_client_recipient_rate_limit allows N
// per anvil_rate_time_unit, counted from the first), so halving the rate and pausing minutes on every
// "too many recipients" crawls. Instead: count what the server took before it first said no, then probe
// upward (each probe a little later than the last refused one) until it takes one again; that time is the
// window, and N per window the rate, kept evenly paced. A refusal at the learned pace lowers it a fifth.
// Per process, for an hour, like the learned connection limits.

/** What the host's budget becomes: its rate, no slot before `notBefore`, and no growth until `holdUntil`. */
type PaceUpdate = { rate: number; notBefore: number; holdUntil: number };

type State =
  /** Counting what the server takes, from the first probe. */
  | { phase: 'watching'; start: number; taken: number; touched: number }
  /** It said no after taking `taken` since `start`; the window is longer than `shortest`. */
  | { phase: 'probing'; start: number; taken: number; shortest: number; refusals: number; touched: number }
  /** Learned: this many probes a second. */
  | { phase: 'paced'; rate: number; touched: number };

/** Each probe after a refusal goes this much later (from the window's start) than the last refused one. */
const probeStep = 1.25;
/** A count older than this starts again: a window is minutes at most. */
const watchMs = 10 * 60_000;
const keptMs = 60 * 60_000;
/**
 * Refusals while probing before each counts a try for its address: by then the window is 1.25^12 (15) times
 * the first gap, and a server that never takes one again must not hold a batch for ever.
 */
const freeRefusals = 12;

export type RateLearning = {
  /** A probe that went out at `sentAt` was answered now; `refused` when the answer was a rate reply. */
  answered(key: string, sentAt: number, refused: boolean, now: number, configuredRate: number): PaceUpdate | undefined;
  /** Whether this budget's pace is learned or being learned: its rate then moves only by what it teaches. */
  learning(key: string, now: number): boolean;
  /** Whether the server said no and its window is still being probed for: its pace is not known yet. */
  probing(key: string, now: number): boolean;
  /** Whether a rate refusal counts a try for its address: once the pace is learned and still refused, or probing long. */
  refusalCountsTry(key: string, now: number): boolean;
};

/** `leastWaitMs`: the least wait before a probe after a refusal (the settings' `rateProbeWaitMs`). */
export function createRateLearning(leastWaitMs: () => number): RateLearning {
  const states = new Map<string, State>();
  const current = (key: string, now: number): State | undefined => {
    const state = states.get(key);
    const stale = state && now - state.touched > (state.phase === 'watching' ? watchMs : keptMs);
    if (stale) states.delete(key);
    return stale ? undefined : state;
  };
  const set = (key: string, state: State) => {
    states.set(key, state);
    if (states.size > 10_000) states.delete(states.keys().next().value!);
  };
  return {
    answered(key, sentAt, refused, now, configuredRate) {
      const state = current(key, now);
      const hold = now + keptMs;
      if (!refused) {
        if (state?.phase === 'probing') {
          // It takes one again: the window was at most this long.
          const rate = Math.min(configuredRate, (state.taken * 1000) / Math.max(1, sentAt - state.start));
          set(key, { phase: 'paced', rate, touched: now });
          return { rate, notBefore: sentAt + 1000 / rate, holdUntil: hold };
        }
        if (state?.phase === 'paced') state.touched = now;
        else if (state) Object.assign(state, { taken: state.taken + 1, touched: now });
        else set(key, { phase: 'watching', start: sentAt, taken: 1, touched: now });
        return undefined;
      }
      if (state?.phase === 'paced') {
        const rate = state.rate * 0.8;
        set(key, { phase: 'paced', rate, touched: now });
        return { rate, notBefore: now + 1000 / rate, holdUntil: hold };
      }
      const start = state?.start ?? sentAt;
      const taken = Math.max(1, state?.taken ?? 1);
      const minWaitMs = leastWaitMs();
      const shortest = Math.max(minWaitMs, sentAt - start);
      const refusals = state?.phase === 'probing' ? state.refusals + 1 : 1;
      set(key, { phase: 'probing', start, taken, shortest, refusals, touched: now });
      // The window is longer than `shortest`; until it is found, the rate said (in the batch's estimate
      // too) is what a window between the next probe's (the least it can be) and the one after would
      // allow. The probes keep their own times.
      const rate = Math.min(configuredRate, (taken * 1000) / (shortest * probeStep ** 1.5));
      return { rate, notBefore: Math.max(now + minWaitMs, start + shortest * probeStep), holdUntil: hold };
    },
    learning(key, now) {
      const phase = current(key, now)?.phase;
      return phase === 'probing' || phase === 'paced';
    },
    probing: (key, now) => current(key, now)?.phase === 'probing',
    refusalCountsTry(key, now) {
      const state = current(key, now);
      return state?.phase === 'paced' || (state?.phase === 'probing' && state.refusals > freeRefusals);
    },
  };
}
