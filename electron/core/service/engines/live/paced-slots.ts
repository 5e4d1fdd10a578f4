// One conversation's place in its host's pace: the slot each probe waits for, what each answer teaches of
// the pace the server allows (rate-learning.ts, written to the host's budget at once, so the next slot
// keeps to it), and when an address a rate reply turned away is asked again.
import type { SqlConnection } from '../../../storage/sql-connection.ts';
import { hostPaces, setHostPace, slotWaiter, type HostPacing } from '../../store/mail-hosts-store.ts';
import type { RateRetry } from './probe-outcomes.ts';
import type { RateLearning } from './rate-learning.ts';

export function pacedSlots(
  db: SqlConnection,
  paces: RateLearning,
  key: string,
  pacing: HostPacing,
  now: () => number,
  stopping: () => boolean,
) {
  const slot = slotWaiter(db, key, pacing, now, stopping);
  /** When the last probe went out: its answer says how the server's window runs. */
  let sentAt = 0;
  return {
    async nextSlot(): Promise<boolean> {
      const granted = await slot();
      if (granted) sentAt = now();
      return granted;
    },
    async onAnswer(rateLimited: boolean): Promise<void> {
      const pace = paces.answered(key, sentAt, rateLimited, now(), pacing.perHostRate);
      if (pace) await setHostPace(db, key, pace, pacing);
    },
    /** The refused address is asked at the host's next slot; the try counts once the pace is learned. */
    async rateRetry(): Promise<RateRetry> {
      const next = (await hostPaces(db, [key])).get(key)?.nextSlotAt ?? 0;
      return { notBefore: Math.max(now(), next), countsTry: paces.refusalCountsTry(key, now()) };
    },
    /** Whether the pace is the server's to set (learned, or being learned) rather than the back-off's. */
    learned: () => paces.learning(key, now()),
  };
}
