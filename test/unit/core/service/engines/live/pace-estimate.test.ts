// The politeness bound as a time left: the slowest server the batch has work at, or the whole queue over
// the connections, whichever is longer; it follows each server's pace (halved after a 421).
import { describe, expect, it } from 'vitest';
import { describeTimeLeft } from '../../../../../../electron/common/durations.ts';
import {
  estimateFromLoads,
  type BudgetPace,
} from '../../../../../../electron/core/service/engines/live/pace-estimate.ts';

const now = 1_000_000;
const load = (domain: string, pending: number, mine = pending, latestAt = 0) => ({
  domain,
  pending,
  mine,
  latestAt,
  extraProbes: 0,
});

describe('the politeness bound', () => {
  const paces: Record<string, BudgetPace> = {
    'ms.test': { key: 'provider:Microsoft', name: 'Microsoft', rate: 2, nextSlotAt: 0 },
    'tenant.test': { key: 'provider:Microsoft', name: 'Microsoft', rate: 2, nextSlotAt: 0 },
    'shop.test': { key: 'server:10.0.0.1', name: 'mx.shop.test', rate: 2, nextSlotAt: 0 },
  };
  const budgetOf = (domain: string) => paces[domain]!;

  it('is the slowest server the batch has work at, counting every batch queued there', () => {
    const estimate = estimateFromLoads(
      [load('ms.test', 400, 300), load('tenant.test', 200, 0), load('shop.test', 100)],
      budgetOf,
      20,
      now,
    );
    // Microsoft: 600 addresses (two domains, one budget) at 2 a second.
    expect(estimate).toEqual({ secondsLeft: 300, largest: { name: 'Microsoft', pending: 300 } });
  });

  it('doubles when a server halves its pace, and waits out a server that asked for a pause', () => {
    const halved = { ...paces['shop.test']!, rate: 1, nextSlotAt: now + 60_000 };
    // A minute's pause, then 100 probes at one a second: the last goes 99 s after the first.
    expect(estimateFromLoads([load('shop.test', 100)], () => halved, 20, now)).toMatchObject({ secondsLeft: 159 });
  });

  it('does not count twice the slots already given to probes under way', () => {
    // Slots are handed out at most 2 s ahead: a next slot 1.5 s away at 2 a second means the 3 probes
    // queued hold the slots at 0, 0.5 and 1 s, so the last is asked in 1 s (not at the free slot's 1.5 s).
    const busy = { ...paces['shop.test']!, rate: 2, nextSlotAt: now + 1500 };
    expect(estimateFromLoads([load('shop.test', 3)], () => busy, 20, now)).toMatchObject({ secondsLeft: 1 });
    // A slow learned pace (one every 4 s) with one probe waiting on its slot 1 s from now: 1 s, not 5.
    const slow = { ...paces['shop.test']!, rate: 0.25, nextSlotAt: now + 5000 };
    expect(estimateFromLoads([load('shop.test', 1)], () => slow, 20, now)).toMatchObject({ secondsLeft: 1 });
    // Further than the horizon and an interval: a pause before every probe.
    const paused = { ...paces['shop.test']!, rate: 0.25, nextSlotAt: now + 10_000 };
    expect(estimateFromLoads([load('shop.test', 2)], () => paused, 20, now)).toMatchObject({ secondsLeft: 14 });
  });

  it('is never less than the whole queue over the connections, nor than a greylisting wait', () => {
    const many = Array.from({ length: 40 }, (_, i) => load(`d${i}.test`, 10, i === 0 ? 10 : 0));
    const own = (domain: string): BudgetPace => ({ key: domain, name: domain, rate: 1, nextSlotAt: 0 });
    // 40 servers of 9 s each (10 probes a second apart) over 20 connections: 18 s, though the batch's
    // own server needs 9.
    expect(estimateFromLoads(many, own, 20, now)?.secondsLeft).toBe(18);
    expect(estimateFromLoads([load('g.test', 1, 1, now + 600_000)], own, 20, now)?.secondsLeft).toBe(600);
  });

  it('has nothing to say for a batch with no work queued', () => {
    expect(estimateFromLoads([load('shop.test', 10, 0)], budgetOf, 20, now)).toBeUndefined();
  });

  it('reads as a person says it', () => {
    expect(describeTimeLeft(12_000, { largest: { name: 'Microsoft', pending: 41_000 } })).toBe(
      'about 3 h 20 min at a polite pace; most of it 41,000 addresses at Microsoft',
    );
    expect(describeTimeLeft(90)).toBe('about 1 min 30 s left');
    // While the slowest server's pace is being learned, no number is said: it would stand on nothing.
    expect(describeTimeLeft(28, { largest: { name: 'mx.shop.test', pending: 14 }, learning: true })).toBe(
      "learning mx.shop.test's pace",
    );
    // Once found and until a whole window confirms it, the number with what it stands on.
    expect(describeTimeLeft(28, { largest: { name: 'mx.shop.test', pending: 14 }, confirming: true })).toBe(
      "about 28 s if mx.shop.test's pace holds (still confirming it)",
    );
  });

  it("says the slowest server's pace is being learned while its window is probed for, and only then", () => {
    const probing = { ...paces['shop.test']!, learning: 'window' as const };
    const learning = estimateFromLoads([load('shop.test', 10)], () => probing, 20, now);
    expect(learning).toEqual({ secondsLeft: 5, largest: { name: 'mx.shop.test', pending: 10 }, learning: 'window' });
    const confirming = estimateFromLoads(
      [load('shop.test', 10)],
      () => ({ ...probing, learning: 'confirming' }),
      20,
      now,
    );
    expect(confirming).toMatchObject({ secondsLeft: 5, learning: 'confirming' });
    // A probed server that is not the slowest does not make the batch's estimate a guess.
    const elsewhere = estimateFromLoads(
      [load('shop.test', 2), load('ms.test', 400)],
      (domain) => (domain === 'shop.test' ? probing : paces[domain]!),
      20,
      now,
    );
    expect(elsewhere).toEqual({ secondsLeft: 200, largest: { name: 'Microsoft', pending: 400 } });
  });
});
