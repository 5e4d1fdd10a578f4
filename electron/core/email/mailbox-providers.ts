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
