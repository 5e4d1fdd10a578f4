// Role and disposable addresses, from maintained list packages rather than lists typed by hand.
import { createRequire } from 'node:module';
import { memoByDomain } from './domain-memo.ts';

const require = createRequire(import.meta.url);
const roleLocalParts = new Set<string>(
  (require('role-based-email-addresses') as string[]).map((part) => part.toLowerCase()),
);
const disposableDomains = new Set<string>(require('disposable-email-domains') as string[]);
/** Domains whose every subdomain is disposable too. */
const disposableWildcards = new Set<string>(require('disposable-email-domains/wildcard.json') as string[]);

/** info@, admin@, sales@ …: mail to a function, not a person. `+tags` are ignored. */
export function isRoleLocalPart(local: string): boolean {
  const plus = local.indexOf('+');
  return roleLocalParts.has((plus === -1 ? local : local.slice(0, plus)).toLowerCase());
}

export const isDisposableDomain = memoByDomain((asciiDomain: string): boolean => {
  const domain = asciiDomain.toLowerCase();
  if (disposableDomains.has(domain) || disposableWildcards.has(domain)) return true;
  const labels = domain.split('.');
  for (let i = 1; i < labels.length - 1; i += 1) {
    if (disposableWildcards.has(labels.slice(i).join('.'))) return true;
  }
  return false;
});
