// What a domain's mail hosts say about it: which mailbox provider runs them (all of Google's MX names
// share one pacing budget), and whose budget a conversation spends.
import type { MailboxProvider } from '../../../email/mailbox-providers.ts';
import type { MailHost } from './mx-lookup.ts';

/** MX host name suffixes of the big providers. */
const providerHostSuffixes: [suffix: string, provider: MailboxProvider][] = [
  ['google.com', 'Google'],
  ['googlemail.com', 'Google'],
  ['outlook.com', 'Microsoft'],
  ['hotmail.com', 'Microsoft'],
  ['yahoodns.net', 'Yahoo'],
  ['yahoo.com', 'Yahoo'],
  ['aol.com', 'Yahoo'],
  ['icloud.com', 'Apple'],
  ['me.com', 'Apple'],
];

const endsWithLabel = (host: string, suffix: string) => host === suffix || host.endsWith(`.${suffix}`);

export function providerOfMailHost(mxHost: string): MailboxProvider {
  const host = mxHost.toLowerCase().replace(/\.$/, '');
  for (const [suffix, provider] of providerHostSuffixes) if (endsWithLabel(host, suffix)) return provider;
  return 'Other';
}

/**
 * Whose budget a conversation with this mail host spends: a big provider's as a whole; anyone else's per
 * server address, not per name, because hosted mail (Microsoft 365, Proofpoint, Mimecast, hosting
 * companies) gives every customer its own MX name on shared servers, and a server counts what arrives at
 * it. Servers judge by the sending address too, so each egress (a proxy, or `direct`) has its own budget.
 */
export function budgetKeyOf(host: MailHost, egress = 'direct'): string {
  const provider = providerOfMailHost(host.name);
  const server =
    provider !== 'Other' ? `provider:${provider}` : `server:${host.addresses[0] ?? host.name.toLowerCase()}`;
  return egress === 'direct' ? server : `${server} via ${egress}`;
}
