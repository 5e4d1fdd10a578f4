// Whether an address is on the do-not-mail list, asked for every new address of a list as it is read, so
// a list of millions against a list of millions stays O(1) a row in little memory: the stored addresses
// in the list import's own fingerprint index (8 bytes each, a match confirmed against the store), the
// domains in a set, each address's domain and its parents looked up there.
import { createAddressIndex } from '../email/address-index.ts';
import { memoByDomain } from '../email/domain-memo.ts';
import { checkDomain } from '../email/syntax.ts';
import type { SuppressionEntry, SuppressionKind } from './suppression-entries.ts';
import type { SuppressionStore } from './suppression-store.ts';

export type SuppressionMatcher = {
  /** What suppresses the address with this key (the list's normal form), or null. */
  matches(key: string): SuppressionKind | null;
  /** Whether there is anything to match at all (an empty list costs the import nothing). */
  readonly empty: boolean;
};

/** The matcher for the stored list, and a one-off list (`sift clean --suppress FILE`) beside it. */
export function suppressionMatcher(
  store: Pick<SuppressionStore, 'domains' | 'addresses' | 'addressOf' | 'counts'>,
  oneOff: readonly SuppressionEntry[] = [],
): SuppressionMatcher {
  const domains = new Set(store.domains());
  const oneOffAddresses = new Set<string>();
  for (const entry of oneOff) (entry.kind === 'domain' ? domains : oneOffAddresses).add(entry.value);
  const { address: storedAddresses } = store.counts();
  const index = createAddressIndex(Math.max(1024, storedAddresses));
  for (const { id, value } of store.addresses()) index.add(value, id);
  const sameKey = (id: number, key: string) => store.addressOf(id) === key;

  /** The domain or one of its parents is listed (a domain covers its subdomains). */
  const domainListed = memoByDomain((domain: string): boolean => {
    const checked = checkDomain(domain);
    if (!checked.ok) return false;
    for (let name = checked.asciiDomain; name.includes('.'); name = name.slice(name.indexOf('.') + 1))
      if (domains.has(name)) return true;
    return false;
  });

  return {
    empty: domains.size === 0 && oneOffAddresses.size === 0 && storedAddresses === 0,
    matches(key) {
      if (oneOffAddresses.has(key) || (index.size > 0 && index.find(key, sameKey) !== undefined)) return 'address';
      return domains.size > 0 && domainListed(key.slice(key.lastIndexOf('@') + 1)) ? 'domain' : null;
    },
  };
}
