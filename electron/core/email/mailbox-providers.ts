// The big mailbox providers by the domains people's addresses use, for a list's breakdown. (Sift's live
// engine knows providers from the MX hosts, and the breakdown takes its word; this is what the address
// alone says.)
export const mailboxProviders = {
  Google: ['gmail.com', 'googlemail.com'],
  Microsoft: ['outlook.com', 'hotmail.com', 'live.com', 'msn.com', 'hotmail.co.uk', 'hotmail.fr', 'outlook.de'],
  Yahoo: ['yahoo.com', 'ymail.com', 'aol.com', 'yahoo.co.uk', 'yahoo.fr', 'yahoo.de', 'rocketmail.com'],
  Apple: ['icloud.com', 'me.com', 'mac.com'],
} as const;

export type MailboxProvider = keyof typeof mailboxProviders | 'Other';

/** Free mailbox domains besides the big providers' own. */
const otherFreeDomains = [
  'gmx.de',
  'gmx.net',
  'web.de',
  'proton.me',
  'protonmail.com',
  'mail.com',
  'yandex.ru',
  'mail.ru',
  'zoho.com',
];

/** Where anyone can open a mailbox for free: a person's own address, not a company's (the score's `free`). */
export const freeMailboxDomains: readonly string[] = [...Object.values(mailboxProviders).flat(), ...otherFreeDomains];
const freeDomains = new Set(freeMailboxDomains);

export function isFreeMailboxDomain(asciiDomain: string): boolean {
  return freeDomains.has(asciiDomain.toLowerCase());
}
