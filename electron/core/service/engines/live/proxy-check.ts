// Each proxy tried on purpose, at `sift service` start and from Settings: does it answer, does it take
// the user name and password, and will it go to a mail server on port 25. The answer names the proxy
// (by its label, never its password) and says what to do.
import type { SqlConnection } from '../../../storage/sql-connection.ts';
import { recordPort25Check } from '../../store/port25-store.ts';
import { createMailRouteLookup } from './mx-lookup.ts';
import { openSmtpSession, SmtpFailure } from './smtp-session.ts';
import type { SmtpSettings } from './smtp-settings.ts';
import { connectThroughProxy, ProxyFailure, proxyFailureNow, type ProxyEndpoint } from './socks-proxy.ts';

export type ProxyCheck =
  | { proxy: string; state: 'ok'; host: string }
  | { proxy: string; state: 'failed'; message: string }
  | { proxy: string; state: 'no_port_25'; hosts: string[] }
  | { proxy: string; state: 'not_checked'; reason: string };

export async function checkProxy(proxy: ProxyEndpoint, settings: SmtpSettings): Promise<ProxyCheck> {
  // First whether it answers at all, which needs no DNS; its password is tried with the first connection.
  const gone = await proxyFailureNow(proxy, settings.timeoutMs);
  if (gone) return { proxy: proxy.label, state: 'failed', message: gone.message };
  const lookup = createMailRouteLookup(settings);
  const tried: string[] = [];
  for (const domain of settings.port25ProbeDomains) {
    const route = await lookup(domain);
    if (route.kind !== 'hosts') continue;
    const host = route.hosts[0]!;
    tried.push(host.name);
    try {
      const address = host.addresses[0]!;
      const socket = await connectThroughProxy(proxy, address, settings.port, settings.timeoutMs);
      const session = await openSmtpSession({
        address,
        port: settings.port,
        servername: host.name,
        timeoutMs: settings.timeoutMs,
        socket,
      });
      await session.close();
      return { proxy: proxy.label, state: 'ok', host: host.name };
    } catch (error) {
      if (error instanceof ProxyFailure) return { proxy: proxy.label, state: 'failed', message: error.message };
      if (!(error instanceof SmtpFailure)) throw error;
      // The server spoke, then hung up: port 25 is reachable through this proxy.
      if (error.greeted) return { proxy: proxy.label, state: 'ok', host: host.name };
    }
  }
  if (tried.length === 0) {
    const reason = 'it answers, but DNS did not answer for the probe domains, so port 25 through it was not tried';
    return { proxy: proxy.label, state: 'not_checked', reason };
  }
  return { proxy: proxy.label, state: 'no_port_25', hosts: tried };
}

/** Every proxy, side by side; one that reached a mail server means port 25 is open for live checks. */
export async function checkProxies(
  db: SqlConnection,
  settings: SmtpSettings,
  now: () => number,
): Promise<ProxyCheck[]> {
  const checks = await Promise.all(settings.proxies.map((proxy) => checkProxy(proxy, settings)));
  if (checks.some((check) => check.state === 'ok')) {
    await recordPort25Check(db, 'open', now(), settings.connectRetryMs);
  }
  return checks;
}

/** The finding in a sentence for a person: which proxy, what happened, what to do. */
export function describeProxyCheck(check: ProxyCheck, port: number): string {
  switch (check.state) {
    case 'ok':
      return `Proxy ${check.proxy}: works (${check.host} answered on port ${port} through it).`;
    case 'failed':
      return `${check.message}. Live checks will not use it until it answers; check its address and password.`;
    case 'no_port_25':
      return (
        `Proxy ${check.proxy}: answers, but no mail server answered through it on port ${port} ` +
        `(${check.hosts.join(', ')}). Its own network may block port ${port}.`
      );
    case 'not_checked':
      return `Proxy ${check.proxy}: not checked (${check.reason}).`;
  }
}
