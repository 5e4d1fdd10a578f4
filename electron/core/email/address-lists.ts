// Role and disposable addresses, from maintained list packages rather than lists typed by hand.
import { createRequire } from 'node:module';
import { getDomain } from 'tldts';
import { memoByDomain } from './domain-memo.ts';

const require = createRequire(import.meta.url);
const roleLocalParts = new Set<string>(
  (require('role-based-email-addresses') as string[]).map((part) => part.toLowerCase()),
);
/**
 * The disposable-email-domains project's blocklist (github.com/disposable-email-domains), published on npm
 * each week as disposable-email-domains-js. It lists registrable domains (and a few hosts under a shared
 * suffix such as dynv6.net), so an address's domain is matched whole and by its registrable domain.
 */
const disposableDomains = new Set<string>(
  require('disposable-email-domains-js/dist/dict/disposable_email_blocklist.json') as string[],
);

/** info@, admin@, sales@ …: mail to a function, not a person. `+tags` are ignored. */
export function isRoleLocalPart(local: string): boolean {
  const plus = local.indexOf('+');
  return roleLocalParts.has((plus === -1 ? local : local.slice(0, plus)).toLowerCase());
}

export const isDisposableDomain = memoByDomain((asciiDomain: string): boolean => {
  const domain = asciiDomain.toLowerCase();
  if (disposableDomains.has(domain)) return true;
  // mail.guerrillamail.com is guerrillamail.com's; private suffixes (dynv6.net) count as public ones.
  const registrable = getDomain(domain, { allowPrivateDomains: true });
  return registrable !== null && disposableDomains.has(registrable);
});
