// The pace a server allows, learned from its rate replies: against a server that takes N recipients per
// window of T seconds counted from the first (Postfix's anvil), and one that always refuses.
import { describe, expect, it } from 'vitest';
import { createRateLearning } from '../../../../../../electron/core/service/engines/live/rate-learning.ts';
import { smtpSettings } from '../../../../../../electron/core/service/engines/live/smtp-settings.ts';

/** The shipped probing: a quarter of a second at least, a dozen refusals free. */
const shipped = smtpSettings();

/** Postfix's smtpd_client_recipient_rate_limit: `max` per `windowMs`, the window starting at its first recipient. */
function anvil(max: number, windowMs: number, begunAt = -Infinity) {
  let start = begunAt;
  let count = 0;
  return (at: number) => {
    if (at - start >= windowMs) [start, count] = [at, 0];
    count += 1;
    return count <= max;
  };
}

/** Sends `addresses` probes at `configured` a second, each at the pace the learning sets; answers what happened. */
function run(server: (at: number) => boolean, addresses: number, configured: number) {
  const paces = createRateLearning(() => shipped);
  let rate = configured;
  let next = 0;
  let sent = 0;
  let refused = 0;
  let last = 0;
  const refusedAt: number[] = [];
  for (let probes = 0; sent < addresses && probes < 1000; probes += 1) {
    const at = next;
    const taken = server(at);
    const pace = paces.answered('host', at, !taken, at, configured);
    if (taken) [sent, last] = [sent + 1, at];
    else [refused, refusedAt[refusedAt.length]] = [refused + 1, at];
    // As the host's budget does: the slot after a probe is one interval at its rate, unless the pace
    // names it; the new rate spaces the slots after that.
    next = pace ? pace.notBefore : at + 1000 / rate;
    if (pace) rate = pace.rate;
  }
  return {
    sent,
    refused,
    lastMs: last,
    rate,
    refusedAt,
    learning: paces.learning('host', last),
    stage: paces.stage('host', last),
  };
}

describe('the pace a server allows', () => {
  it('finds the window of a server allowing 6 recipients per 20 s, and keeps within 1.5 times its limit', () => {
    const outcome = run(anvil(6, 20_000), 14, 5);
    expect(outcome.sent).toBe(14);
    // The limit lets 14 through in 40 s (6, 6 a window later, 2 two windows later).
    expect(outcome.lastMs).toBeLessThanOrEqual(40_000 * 1.5);
    // At least 80% of the rate the server allows (0.3 a second), and not above it.
    expect(outcome.rate).toBeGreaterThanOrEqual(0.3 * 0.8);
    expect(outcome.rate).toBeLessThanOrEqual(0.3);
    // Refusals only while finding the window: none once the pace is learned.
    expect(outcome.refusedAt.every((at) => at < 25_000)).toBe(true);
    expect(outcome.learning).toBe(true);
  });

  it('learns the window again from where it is known to begin when it began before the first probe', () => {
    // A connection of ours 12 s before the batch (a test of port 25, say) began the server's window: the
    // first refusal and the probe taken again are 8 s apart, not 20.
    const outcome = run(anvil(6, 20_000, -12_000), 30, 5);
    expect(outcome.sent).toBe(30);
    expect(outcome.rate).toBeGreaterThanOrEqual(0.3 * 0.8);
    expect(outcome.rate).toBeLessThanOrEqual(0.3);
    // One more round of probing, from the window the server began when it took a probe again; none after.
    expect(outcome.refusedAt.every((at) => at < 60_000)).toBe(true);
    expect(outcome.stage).toBeUndefined();
  });

  it('calls a pace learned but not yet seen through a whole window still being learned', () => {
    const paces = createRateLearning(() => shipped);
    const server = anvil(6, 20_000);
    let at = 0;
    let rate = 5;
    const stages: { at: number; stage: string | undefined }[] = [];
    for (let probes = 0; probes < 60 && at < 70_000; probes += 1) {
      const pace = paces.answered('host', at, !server(at), at, 5);
      stages.push({ at, stage: paces.stage('host', at) });
      at = pace ? pace.notBefore : at + 1000 / rate;
      if (pace) rate = pace.rate;
    }
    // The window probed for from the first refusal (the 7th probe); found about 22 s in, the pace stands on
    // it, unconfirmed, for one window more; then it is known.
    expect(stages.slice(0, 6).every((sample) => sample.stage === undefined)).toBe(true);
    expect(stages[6]!.stage).toBe('window');
    const unconfirmed = stages.filter((sample) => sample.at > 25_000 && sample.at < 40_000);
    expect(unconfirmed.length).toBeGreaterThan(2);
    expect(unconfirmed.every((sample) => sample.stage === 'confirming')).toBe(true);
    expect(stages.filter((sample) => sample.at > 50_000).every((sample) => sample.stage === undefined)).toBe(true);
  });

  it('learns a short window as well, and keeps to the configured rate when the server says nothing', () => {
    const short = run(anvil(4, 3000), 40, 5);
    expect(short.rate).toBeGreaterThanOrEqual((4 / 3) * 0.8);
    expect(short.refusedAt.every((at) => at < 5000)).toBe(true);
    const quiet = run(() => true, 20, 5);
    expect(quiet).toMatchObject({ sent: 20, refused: 0, rate: 5, learning: false });
  });

  it('counts a try for a refusal only once the pace is learned, or after a dozen free probes', () => {
    const paces = createRateLearning(() => shipped);
    let at = 0;
    let counted = 0;
    for (let refusals = 0; refusals < 20; refusals += 1) {
      const pace = paces.answered('never', at, true, at, 5);
      if (paces.refusalCountsTry('never', at)) counted += 1;
      at = pace!.notBefore;
    }
    // A server that never takes one again cannot hold a batch for ever: its refusals count after 12.
    expect(counted).toBe(8);
    expect(paces.refusalCountsTry('elsewhere', at)).toBe(false);
  });

  it('gives as many free probes as the settings say, read at each refusal', () => {
    const settings = { ...shipped, rateProbeFreeRefusals: 2 };
    const paces = createRateLearning(() => settings);
    const counts = [0, 1, 2, 3].map((at) => {
      paces.answered('never', at * 1000, true, at * 1000, 5);
      return paces.refusalCountsTry('never', at * 1000);
    });
    expect(counts).toEqual([false, false, true, true]);
    settings.rateProbeFreeRefusals = 12;
    expect(paces.refusalCountsTry('never', 3000)).toBe(false);
  });
});
