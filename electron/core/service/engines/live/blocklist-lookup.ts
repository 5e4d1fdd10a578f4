// Before a batch: is the address live checks go out from on the DNS blocklists mail servers query most?
// Asked as a server asks (RFC 5782: the address's octets reversed, under the list's zone) through the
// engine's own resolvers. A list that answers 127.255.255.x is refusing to answer (Spamhaus: a public
// resolver, or too many queries), which says nothing of the address; so is any answer outside 127/8.
import { Resolver } from 'node:dns/promises';
import { isIPv4 } from 'node:net';
import { preflightBlocklists } from './blocklists.ts';
import type { SmtpSettings } from './smtp-settings.ts';
import { withoutControls } from '../../../../common/terminal-text.ts';

export type BlocklistCheck = {
  state: 'listed' | 'clean' | 'not_checked';
  /** The address looked up: the one set, else the HELO name's. */
  address?: string;
  listed: { name: string; removalUrl: string; text?: string }[];
  /** Lists that gave no answer about this address, each with why. */
  unanswered: { name: string; why: string }[];
  message: string;
};

const absent = new Set(['ENOTFOUND', 'ENODATA']);
const codeOf = (error: unknown) => (error as NodeJS.ErrnoException).code ?? '';
/** 127.0.0.2 to 127.255.254.255: a listing. 127.255.255.x is a list's own error code (RFC 5782 §2.1 leaves 127.0.0.0/8 to listings). */
const isListing = (answer: string) => answer.startsWith('127.') && !answer.startsWith('127.255.255.');

type Found = { name: string; removalUrl: string } & (
  { listed: true; text?: string } | { listed: false } | { unanswered: string }
);

async function askOne(resolver: Resolver, address: string, list: (typeof preflightBlocklists)[number]): Promise<Found> {
  const query = `${address.split('.').reverse().join('.')}.${list.zone}`;
  const named = { name: list.name, removalUrl: list.removalUrl };
  let answers: string[];
  try {
    answers = await resolver.resolve4(query);
  } catch (error) {
    if (absent.has(codeOf(error))) return { ...named, listed: false };
    return { ...named, unanswered: `DNS did not answer (${codeOf(error) || String(error)})` };
  }
  if (answers.some(isListing)) {
    const text = await resolver.resolveTxt(query).then(
      // Text from the network, printed in a terminal and shown in the app: no escape sequences.
      (records) => withoutControls(records.map((parts) => parts.join('')).join(' ')) || undefined,
      () => undefined,
    );
    return { ...named, listed: true, ...(text ? { text } : {}) };
  }
  const refused = answers.find((answer) => answer.startsWith('127.255.255.'));
  return {
    ...named,
    unanswered: refused
      ? `the list refused to answer (${refused}: it does not answer public or busy resolvers; use a resolver of your own)`
      : `an answer that is not a listing (${answers.join(', ')})`,
  };
}

/** The address live checks leave from: the one set, else what the HELO name resolves to. */
async function sendingAddress(settings: SmtpSettings, resolver: Resolver): Promise<string | undefined> {
  if (settings.sendingAddress) return settings.sendingAddress;
  return resolver.resolve4(settings.helo).then(
    (addresses) => addresses[0],
    () => undefined,
  );
}

export async function checkSenderBlocklists(settings: SmtpSettings, timeoutMs = 5000): Promise<BlocklistCheck> {
  const none = { listed: [], unanswered: [] };
  if (settings.proxies.length > 0 && !settings.sendingAddress) {
    return { state: 'not_checked', ...none, message: 'Blocklists: not checked (checks go out through proxies).' };
  }
  const resolver = resolverFor(settings.resolvers, timeoutMs);
  const address = await sendingAddress(settings, resolver);
  if (!address || !isIPv4(address)) {
    const why = address ? `${address} is not an IPv4 address` : `${settings.helo} does not resolve to an address`;
    return { state: 'not_checked', ...none, message: `Blocklists: not checked (${why}; set --sending-address).` };
  }
  return lookUp(address, resolver);
}

/** One address on the lists, asked of these resolvers (the HELO check's address, say). */
export const checkAddressBlocklists = (address: string, resolvers: string[], timeoutMs = 5000) =>
  lookUp(address, resolverFor(resolvers, timeoutMs));

function resolverFor(resolvers: string[], timeoutMs: number): Resolver {
  const resolver = new Resolver({ timeout: timeoutMs, tries: 1 });
  if (resolvers.length > 0) resolver.setServers(resolvers);
  return resolver;
}

async function lookUp(address: string, resolver: Resolver): Promise<BlocklistCheck> {
  const found = await Promise.all(preflightBlocklists.map((list) => askOne(resolver, address, list)));
  const listed = found.flatMap((one) =>
    'listed' in one && one.listed
      ? [{ name: one.name, removalUrl: one.removalUrl, ...(one.text ? { text: one.text } : {}) }]
      : [],
  );
  const unanswered = found.flatMap((one) => ('unanswered' in one ? [{ name: one.name, why: one.unanswered }] : []));
  const check = { address, listed, unanswered };
  if (listed.length > 0) return { state: 'listed', ...check, message: describeListed(address, listed, unanswered) };
  if (unanswered.length === found.length) {
    return {
      state: 'not_checked',
      ...check,
      message: `Blocklists: not checked for ${address} (${unanswered[0]!.why}).`,
    };
  }
  const asked = found.flatMap((one) => ('unanswered' in one ? [] : [one.name]));
  return {
    state: 'clean',
    ...check,
    message:
      `Blocklists: ${address} is on none of the ${asked.length} lists asked (${asked.join(', ')})` +
      (unanswered.length > 0 ? `; ${unanswered.map((one) => `${one.name}: ${one.why}`).join('; ')}.` : '.'),
  };
}

function describeListed(
  address: string,
  listed: BlocklistCheck['listed'],
  unanswered: BlocklistCheck['unanswered'],
): string {
  const lists = listed.map((list) => `${list.name}${list.text ? ` ("${list.text}")` : ''}`).join(', ');
  const removal = listed.map((list) => `${list.name}: ${list.removalUrl}`).join('; ');
  return (
    `Blocklists: ${address} is listed on ${lists}. Servers that use these lists refuse live checks from here; ` +
    `those addresses come back "unknown" (sender_blocklisted) and are not billed. Ask for removal (${removal}), ` +
    'or send the checks out another way (--proxy).' +
    (unanswered.length > 0 ? ` Not answered: ${unanswered.map((one) => one.name).join(', ')}.` : '')
  );
}
