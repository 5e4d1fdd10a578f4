// The pace a mail server allows, learned from its rate replies as congestion control learns a link's:
// servers ration recipients per client in windows (Postfix's smtpd_client_recipient_rate_limit allows N
// per anvil_rate_time_unit, counted from the first), so halving the rate and pausing minutes on every
// "too many recipients" crawls. Instead: count what the server took before it first said no, then probe
// upward (each probe a little later than the last refused one) until it takes one again; that time is the
// window, and N per window the rate, kept evenly paced. That window is measured from our first probe, but
// the server's may have begun before it (at an earlier connection of ours: a test of port 25, another
// batch), so it is provisional: the accepted probe began a new window there, and if the next window
// refuses at the learned pace, the probing runs again from that known start. A window that passes without
// a refusal confirms the pace; a refusal at a confirmed pace lowers it a fifth. Per process, for an hour,
// like the learned connection limits.

import type { SmtpSettings } from './smtp-settings.ts';

/**
 * How far a server's pace is from known: its window still probed for (`window`: no number stands on
 * anything), or found but not yet seen whole at the pace it gives (`confirming`: a number that holds if the
 * window began with our first probe).
 */
export type PaceLearning = 'window' | 'confirming';

/** What the host's budget becomes: its rate, no slot before `notBefore`, and no growth until `holdUntil`. */
type PaceUpdate = { rate: number; notBefore: number; holdUntil: number };

type State =
  /** Counting what the server takes, from the first probe. */
  | { phase: 'watching'; start: number; taken: number; touched: number }
  /**
   * It said no after taking `taken` since `start`; the window is longer than `shortest`. `startKnown`: the
   * server's window began at `start` (a window after the first), not perhaps before it.
   */
  | {
      phase: 'probing';
      start: number;
      taken: number;
      shortest: number;
      refusals: number;
      touched: number;
      startKnown: boolean;
    }
  /**
   * Learned: this many probes a second. The server's window began at `windowStart` (the probe it took
   * again), and `takenSince` went in since. Until a probe sent from `confirmAt` on (a window later) is
   * taken, the pace stands on a window that may have begun before our first probe: not `confirmed`.
   */
  | {
      phase: 'paced';
      rate: number;
      touched: number;
      windowStart: number;
      takenSince: number;
      confirmAt: number;
      confirmed: boolean;
    };

/** Each probe after a refusal goes this much later (from the window's start) than the last refused one. */
const probeStep = 1.25;
/** A count older than this starts again: a window is minutes at most. */
const watchMs = 10 * 60_000;
const keptMs = 60 * 60_000;

export type RateLearning = {
  /** A probe that went out at `sentAt` was answered now; `refused` when the answer was a rate reply. */
  answered(key: string, sentAt: number, refused: boolean, now: number, configuredRate: number): PaceUpdate | undefined;
  /** Whether this budget's pace is learned or being learned: its rate then moves only by what it teaches. */
  learning(key: string, now: number): boolean;
  /** Whether the pace is still being learned, and how far (undefined: known, or never refused). */
  stage(key: string, now: number): PaceLearning | undefined;
  /** Whether a rate refusal counts a try for its address: once the pace is learned and still refused, or probing long. */
  refusalCountsTry(key: string, now: number): boolean;
};

/** The settings read at each answer: the least wait before a probe, and the refusals probed for free. */
export function createRateLearning(
  settings: () => Pick<SmtpSettings, 'rateProbeWaitMs' | 'rateProbeFreeRefusals'>,
): RateLearning {
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
          // It takes one again: the window was at most this long, and a new one begins with this probe.
          const windowMs = Math.max(1, sentAt - state.start);
          const rate = Math.min(configuredRate, (state.taken * 1000) / windowMs);
          const [windowStart, confirmAt, confirmed] = [sentAt, sentAt + windowMs, state.startKnown];
          set(key, { phase: 'paced', rate, touched: now, windowStart, takenSince: 1, confirmAt, confirmed });
          return { rate, notBefore: sentAt + 1000 / rate, holdUntil: hold };
        }
        if (state?.phase === 'paced') {
          const confirmed = state.confirmed || sentAt >= state.confirmAt;
          Object.assign(state, { touched: now, takenSince: state.takenSince + 1, confirmed });
        } else if (state) Object.assign(state, { taken: state.taken + 1, touched: now });
        else set(key, { phase: 'watching', start: sentAt, taken: 1, touched: now });
        return undefined;
      }
      if (state?.phase === 'paced' && state.confirmed) {
        const rate = state.rate * 0.8;
        set(key, { ...state, rate, touched: now });
        return { rate, notBefore: now + 1000 / rate, holdUntil: hold };
      }
      // Refused within the first window at the learned pace: the window is longer than measured, and
      // began when the server took a probe again. Probed for again from there.
      const again = state?.phase === 'paced';
      const start = again ? state.windowStart : (state?.start ?? sentAt);
      const taken = Math.max(1, again ? state.takenSince : (state?.taken ?? 1));
      const startKnown = again || (state?.phase === 'probing' && state.startKnown);
      const minWaitMs = settings().rateProbeWaitMs;
      const shortest = Math.max(minWaitMs, sentAt - start);
      const refusals = state?.phase === 'probing' ? state.refusals + 1 : 1;
      set(key, { phase: 'probing', start, taken, shortest, refusals, touched: now, startKnown });
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
    stage(key, now) {
      const state = current(key, now);
      if (state?.phase === 'probing') return 'window';
      return state?.phase === 'paced' && !state.confirmed ? 'confirming' : undefined;
    },
    refusalCountsTry(key, now) {
      const state = current(key, now);
      if (state?.phase === 'paced') return state.confirmed;
      return state?.phase === 'probing' && state.refusals > settings().rateProbeFreeRefusals;
    },
  };
}
