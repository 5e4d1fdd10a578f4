// Where a webhook may go: public addresses only, unless the operator allows this computer and private
// networks (`sift service --allow-private-webhooks`). Checked when an endpoint is added, and again on the
// address each delivery's name resolves to, so a name that later resolves inward (DNS rebinding) is
// refused too. Any key holder's batch makes the service POST to every endpoint, and the delivery log says
// what answered: an endpoint inside would let them probe the network the service sits in.
import { lookup, type LookupAddress } from 'node:dns';
import { isIP, type LookupFunction } from 'node:net';
import { specialRangeOf } from './address-ranges.ts';

/** The kind of range `address` is in when a webhook may not go there, or undefined for a public address. */
const refusedRangeOf = specialRangeOf;

export class WebhookRefused extends Error {}

const allowHint = 'webhooks go only to public addresses unless sift service runs with --allow-private-webhooks';

function refusal(host: string, address: string, kind: string): WebhookRefused {
  const where = host === address ? address : `${host} (${address})`;
  return new WebhookRefused(`${where} is ${kind}: ${allowHint}.`);
}

/** A webhook URL's host as an address or a name, without IPv6 brackets. */
const hostOf = (url: URL) => url.hostname.replace(/^\[(.*)\]$/, '$1');

/**
 * The endpoint's URL, read and checked: http or https, no user or password (they would be stored and
 * printed), and, unless `allowPrivate`, no address inside. A name that does not resolve now is taken (its
 * deliveries are checked when they connect); one that resolves to any inside address is refused.
 */
export async function checkWebhookUrl(text: string, allowPrivate: boolean): Promise<URL> {
  if (!URL.canParse(text))
    throw new WebhookRefused('A webhook URL is an http or https URL, such as https://hooks.example.com/sift.');
  const url = new URL(text);
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    throw new WebhookRefused('A webhook URL must be http or https.');
  if (url.username || url.password) {
    throw new WebhookRefused(
      'A webhook URL may not hold a user or password (it would be stored and shown): the signature header proves the sender.',
    );
  }
  if (!allowPrivate) {
    const host = hostOf(url);
    const addresses = isIP(host) ? [host] : await resolveAll(host).catch(() => []);
    for (const address of addresses) {
      const kind = refusedRangeOf(address);
      if (kind) throw refusal(host, address, kind);
    }
  }
  return url;
}

const resolveAll = (host: string) =>
  new Promise<string[]>((resolve, reject) =>
    lookup(host, { all: true }, (error, found) => (error ? reject(error) : resolve(found.map((a) => a.address)))),
  );

/** Checked again at delivery: the URL's own address, if it is one (no lookup is made for those). */
export function refuseInsideLiteral(url: URL, allowPrivate: boolean): void {
  if (url.username || url.password) throw new WebhookRefused('The endpoint URL holds a user or password: not sent.');
  const host = hostOf(url);
  const kind = allowPrivate ? undefined : refusedRangeOf(host);
  if (kind) throw refusal(host, host, kind);
}

/** A `lookup` for a delivery's connection that refuses a name resolving to any inside address. */
export function guardedLookup(allowPrivate: boolean): LookupFunction {
  return (hostname, options, callback) => {
    lookup(hostname, { ...options, all: true }, (error, addresses: LookupAddress[]) => {
      if (error) return callback(error, '', 0);
      const inside = allowPrivate ? undefined : addresses.find(({ address }) => refusedRangeOf(address));
      if (inside) return callback(refusal(hostname, inside.address, refusedRangeOf(inside.address)!), '', 0);
      if (options.all) return (callback as unknown as (e: null, all: LookupAddress[]) => void)(null, addresses);
      return callback(null, addresses[0]!.address, addresses[0]!.family);
    });
  };
}

/** The inside range a stored endpoint's host is in, its name resolved now; undefined when public or not resolved. */
export async function insideRangeOf(text: string): Promise<string | undefined> {
  if (!URL.canParse(text)) return undefined;
  const host = hostOf(new URL(text));
  const addresses = isIP(host) ? [host] : await resolveAll(host).catch(() => []);
  return addresses.map(refusedRangeOf).find((kind) => kind !== undefined);
}
