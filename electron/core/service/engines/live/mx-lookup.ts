// Where mail for a domain goes (RFC 5321 §5.1): its MX hosts in preference order, else the domain's own
// A/AAAA address; a null MX (RFC 7505) or a domain that does not exist receives no mail at all.
// Every name is resolved through the configured resolvers, never the system's own lookup, so tests
// and a person's choice of resolver see the same answers.
import { Resolver } from 'node:dns/promises';

export type MailHost = { name: string; addresses: string[] };
export type MailRoute =
  | { kind: 'hosts'; hosts: MailHost[]; ttlMs: number }
  | { kind: 'no_mail'; reason: 'null_mx' | 'no_domain' | 'no_mail_host'; ttlMs: number }
  | { kind: 'dns_failed'; message: string };

export type MailRouteLookup = (asciiDomain: string) => Promise<MailRoute>;

type Bounds = { resolvers: string[]; timeoutMs: number; dnsCacheMinMs: number; dnsCacheMaxMs: number };

const codeOf = (error: unknown) => (error as NodeJS.ErrnoException | undefined)?.code;
/** Answers that say a name has no such records, as opposed to a resolver that did not answer. */
const absent = new Set(['ENODATA', 'ENOTFOUND']);

export function createMailRouteLookup(settings: Bounds): MailRouteLookup {
  const resolver = new Resolver({ timeout: Math.min(settings.timeoutMs, 5000), tries: 2 });
  if (settings.resolvers.length > 0) resolver.setServers(settings.resolvers);
  const clamp = (ms: number) => Math.min(settings.dnsCacheMaxMs, Math.max(settings.dnsCacheMinMs, ms));
  const negativeTtl = clamp(settings.dnsCacheMinMs);

  /** A host's addresses and the shortest TTL among them; none when the name has no address records. */
  async function addressesOf(name: string): Promise<{ addresses: string[]; ttlMs: number }> {
    const found: { address: string; ttl: number }[] = [];
    for (const lookup of [resolver.resolve4.bind(resolver), resolver.resolve6.bind(resolver)]) {
      try {
        found.push(...(await lookup(name, { ttl: true })));
      } catch (error) {
        if (!absent.has(codeOf(error) ?? '')) throw error;
      }
      if (found.length > 0) break;
    }
    const ttl = found.length === 0 ? 0 : Math.min(...found.map((record) => record.ttl)) * 1000;
    return { addresses: found.map((record) => record.address), ttlMs: ttl };
  }

  return async (asciiDomain) => {
    try {
      let exchanges: { exchange: string; priority: number }[];
      try {
        exchanges = await resolver.resolveMx(asciiDomain);
      } catch (error) {
        if (codeOf(error) === 'ENOTFOUND') return { kind: 'no_mail', reason: 'no_domain', ttlMs: negativeTtl };
        if (codeOf(error) !== 'ENODATA') throw error;
        exchanges = [];
      }
      // RFC 7505: a single MX of "." (node gives an empty name) says the domain takes no mail.
      if (exchanges.some((mx) => mx.exchange === '' || mx.exchange === '.')) {
        return { kind: 'no_mail', reason: 'null_mx', ttlMs: negativeTtl };
      }
      // No MX: the domain itself is the mail host, if it has an address (RFC 5321 §5.1).
      const names =
        exchanges.length === 0
          ? [asciiDomain]
          : [...exchanges].sort((a, b) => a.priority - b.priority).map((mx) => mx.exchange.toLowerCase());
      const hosts: MailHost[] = [];
      let ttlMs = settings.dnsCacheMaxMs;
      for (const name of [...new Set(names)]) {
        const { addresses, ttlMs: hostTtl } = await addressesOf(name);
        if (addresses.length === 0) continue;
        hosts.push({ name, addresses });
        ttlMs = Math.min(ttlMs, hostTtl);
      }
      if (hosts.length === 0) return { kind: 'no_mail', reason: 'no_mail_host', ttlMs: negativeTtl };
      // node's MX answer carries no TTL, so the mail hosts' address records bound how long this is kept.
      return { kind: 'hosts', hosts, ttlMs: clamp(ttlMs) };
    } catch (error) {
      return { kind: 'dns_failed', message: `DNS lookup failed (${codeOf(error) ?? String(error)})` };
    }
  };
}
