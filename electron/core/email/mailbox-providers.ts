// The big mailbox providers by the domains people's addresses use, for a list's breakdown. (The local
// engine will know providers from MX hosts; this is what the address alone says.)
export const mailboxProviders = {
  Google: ['gmail.com', 'googlemail.com'],
  Microsoft: ['outlook.com', 'hotmail.com', 'live.com', 'msn.com', 'hotmail.co.uk', 'hotmail.fr', 'outlook.de'],
  Yahoo: ['yahoo.com', 'ymail.com', 'aol.com', 'yahoo.co.uk', 'yahoo.fr', 'yahoo.de', 'rocketmail.com'],
  Apple: ['icloud.com', 'me.com', 'mac.com'],
} as const;

export type MailboxProvider = keyof typeof mailboxProviders | 'Other';
