// Numbers as the command line prints them: grouped the one way every command does ("12,400"), and with
// their noun in the singular or the plural.
export const count = (value: number) => value.toLocaleString('en');

/** "1 row", "2 rows"; `plural` where adding an s is not it ("1 address is", "2 addresses are"). */
export const counted = (value: number, noun: string, plural = `${noun}s`) =>
  `${count(value)} ${value === 1 ? noun : plural}`;
