// How long checking has left, from the pace seen in this run: addresses checked since the run began over
// the time since. Said only once the pace is known (some seconds and some progress), never guessed.
import type { Clock } from '../../client/clock.ts';

/** No estimate before this long, nor before this many addresses were checked in this run. */
const warmUpMs = 3000;
const warmUpAddresses = 10;

export function createEta(clock: Pick<Clock, 'now'>) {
  let start: { at: number; checked: number } | undefined;
  /** Seconds left for `total - checked`, or undefined while the pace is not known yet. */
  return (checked: number, total: number): number | undefined => {
    const now = clock.now();
    start ??= { at: now, checked };
    const done = checked - start.checked;
    const elapsed = now - start.at;
    if (checked >= total) return 0;
    if (elapsed < warmUpMs || done < warmUpAddresses) return undefined;
    return Math.ceil(((total - checked) * elapsed) / done / 1000);
  };
}
