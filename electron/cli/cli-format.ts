// Numbers and days as the command line prints them: numbers grouped the one way every command does
// ("12,400") with their noun in the singular or the plural, and days as the ISO calendar writes them (UTC).
export const count = (value: number) => value.toLocaleString('en');

/** "1 row", "2 rows"; `plural` where adding an s is not it ("1 address is", "2 addresses are"). */
export const counted = (value: number, noun: string, plural = `${noun}s`) =>
  `${count(value)} ${value === 1 ? noun : plural}`;

/** "2026-03-03": the day a time falls on in UTC. */
export const day = (time: number) => new Date(time).toISOString().slice(0, 10);
