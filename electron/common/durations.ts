// Seconds as a person says them, for the app and the CLI alike.

/** "45 s", "3 min 20 s", "1 h 5 min". */
export function formatDuration(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  if (s < 60) return `${s} s`;
  if (s < 3600) return `${Math.floor(s / 60)} min${s % 60 ? ` ${s % 60} s` : ''}`;
  const minutes = Math.floor((s % 3600) / 60);
  return `${Math.floor(s / 3600)} h${minutes ? ` ${minutes} min` : ''}`;
}

/**
 * Where the time left comes from the service's politeness bound: where most of it goes; `learning` when that
 * server's pace is still being learned from its rate replies (no number yet stands on anything);
 * `confirming` when the pace found is not yet seen through a whole window (the number holds if it is right).
 */
export type PolitePace = { largest?: { name: string; pending: number }; learning?: boolean; confirming?: boolean };

/** The pace as the service's estimate gives it (its `largest`, and `pace: "learning"`), for the screens. */
export const politePaceOf = (estimate: {
  largest?: { name: string; pending: number };
  pace?: string | undefined;
}): PolitePace => ({
  ...(estimate.largest ? { largest: { name: estimate.largest.name, pending: estimate.largest.pending } } : {}),
  ...(estimate.pace === 'learning' ? { learning: true } : {}),
  ...(estimate.pace === 'confirming' ? { confirming: true } : {}),
});

/**
 * The time left in words: "about 3 h 20 min left", or, from the politeness bound, "about 3 h 20 min at a
 * polite pace; most of it 41,000 addresses at Microsoft".
 */
export function describeTimeLeft(seconds: number, polite?: PolitePace): string {
  if (!polite) return `about ${formatDuration(seconds)} left`;
  const whose = polite.largest ? `${polite.largest.name}'s` : "a mail server's";
  if (polite.learning) return `learning ${whose} pace`;
  if (polite.confirming) return `about ${formatDuration(seconds)} if ${whose} pace holds (still confirming it)`;
  const largest = polite.largest
    ? `; most of it ${polite.largest.pending.toLocaleString('en')} ${polite.largest.pending === 1 ? 'address' : 'addresses'} at ${polite.largest.name}`
    : '';
  return `about ${formatDuration(seconds)} at a polite pace${largest}`;
}
