// Whether the HELO name live checks give will satisfy servers that check it: the name resolves to an
// address (forward), and that address resolves back to the name (reverse, its PTR record). Asked of the
// resolvers the engine uses; where DNS does not answer, that is said, not guessed.
import { Resolver } from 'node:dns/promises';
import type { HeloCheck } from '../../common/settings-schemas.ts';
import { checkAddressBlocklists } from '../service/engines/live/blocklist-lookup.ts';

const unanswered = new Set(['ETIMEOUT', 'ECONNREFUSED', 'ESERVFAIL', 'EREFUSED', 'ECANCELLED']);
const sameName = (a: string, b: string) => a.replace(/\.$/, '').toLowerCase() === b.replace(/\.$/, '').toLowerCase();

/** What DNS says of the name, and, when it resolved, whether its address is on the blocklists. */
export async function checkHeloName(helo: string, resolvers: string[], timeoutMs = 3000): Promise<HeloCheck> {
  const check = await checkName(helo, resolvers, timeoutMs);
  const address = check.addresses[0];
  if (!address) return check;
  return { ...check, blocklists: await checkAddressBlocklists(address, resolvers, timeoutMs) };
}

async function checkName(helo: string, resolvers: string[], timeoutMs: number): Promise<HeloCheck> {
  const resolver = new Resolver({ timeout: timeoutMs, tries: 1 });
  if (resolvers.length > 0) resolver.setServers(resolvers);
  const notChecked = (): HeloCheck => ({
    state: 'not_checked',
    addresses: [],
    reverseNames: [],
    message: `DNS did not answer, so whether ${helo} points to this computer was not checked.`,
  });
  let addresses: string[];
  try {
    addresses = await resolver.resolve4(helo);
  } catch (error) {
    if (unanswered.has((error as NodeJS.ErrnoException).code ?? '')) return notChecked();
    return {
      state: 'no_address',
      addresses: [],
      reverseNames: [],
      message:
        `${helo} does not resolve to an address: many mail servers refuse a HELO name that does not exist. ` +
        "Use this computer's (or its network's) name as DNS knows it.",
    };
  }
  const address = addresses[0]!;
  let reverseNames: string[] = [];
  try {
    reverseNames = await resolver.reverse(address);
  } catch (error) {
    if (unanswered.has((error as NodeJS.ErrnoException).code ?? '')) return notChecked();
  }
  const found = { addresses, reverseNames };
  if (reverseNames.some((name) => sameName(name, helo))) {
    return {
      state: 'matches',
      ...found,
      message: `${helo} resolves to ${address}, and ${address} resolves back to ${helo}: servers that check the name will find it.`,
    };
  }
  if (reverseNames.length === 0) {
    return {
      state: 'no_reverse',
      ...found,
      message: `${helo} resolves to ${address}, but ${address} has no name of its own (no PTR record): some mail servers refuse such senders.`,
    };
  }
  return {
    state: 'reverse_differs',
    ...found,
    message:
      `${helo} resolves to ${address}, but ${address} resolves back to ${reverseNames.join(', ')}: ` +
      'some mail servers refuse a sender whose name and address disagree.',
  };
}
