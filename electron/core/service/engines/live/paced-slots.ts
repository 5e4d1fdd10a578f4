// One conversation's place in its host's pace: its connection's place in the budget, the slot each probe
// waits for, what each answer teaches of the pace the server allows (rate-learning.ts, written to the
// host's budget at once, so the next slot keeps to it), when an address a rate reply turned away is asked
// again, and the place given back.
import type { SqlConnection } from '../../../storage/sql-connection.ts';
import {
  hostPaces,
  releaseHost,
  reserveHost,
  setHostPace,
  slotWaiter,
  type HostPacing,
} from '../../store/mail-hosts-store.ts';
import type { DomainProbe } from './domain-prober.ts';
import type { RateLearning } from './rate-learning.ts';

export function pacedSlots(
  db: SqlConnection,
  paces: RateLearning,
  place: { key: string; owner: string },
  pacing: HostPacing,
  now: () => number,
  stopping: () => boolean,
) {
  const { key, owner } = place;
  const slot = slotWaiter(db, key, pacing, now, stopping);
  /** When the last probe went out: its answer says how the server's window runs. */
  let sentAt = 0;
  return {
    /** A connection's place in the host's budget, with at most `allowed` open there at once; else when to ask again. */
    reserve: (allowed: number) => reserveHost(db, key, owner, now(), { ...pacing, perHostConcurrency: allowed }),
    async nextSlot(): Promise<boolean> {
      const granted = await slot();
      if (granted) sentAt = now();
      return granted;
    },
    async onAnswer(rateLimited: boolean): Promise<void> {
      const pace = paces.answered(key, sentAt, rateLimited, now(), pacing.perHostRate);
      if (pace) await setHostPace(db, key, pace, pacing);
    },
    /** After a rate reply, its address is asked at the host's next slot; the try counts once the pace is learned. */
    async rateRetry(probe: DomainProbe): Promise<void> {
      if (!probe.rateLimited) return;
      const next = (await hostPaces(db, [key])).get(key)?.nextSlotAt ?? 0;
      probe.rateRetry = { notBefore: Math.max(now(), next), countsTry: paces.refusalCountsTry(key, now()) };
    },
    /** The connection's place is free again; the rate moves with how it went, unless the server sets the pace. */
    async release(probe: DomainProbe | undefined): Promise<void> {
      const learned = paces.learning(key, now());
      await releaseHost(db, key, owner, probe?.end ?? 'failed', probe?.deferrals ?? 0, now(), pacing, learned);
    },
  };
}
