// Each proxy tried on purpose, at `sift service` start and from Settings: does it answer, does it take
// the user name and password (both proven with no DNS needed), and will it go to a mail server on port
// 25. The answer names the proxy (by its label, never its password) and says what to do.
import type { SqlConnection } from '../../../storage/sql-connection.ts';
import { recordPort25Check } from '../../store/port25-store.ts';
import { createMailRouteLookup } from './mx-lookup.ts';
import { openSmtpSession, SmtpFailure } from './smtp-session.ts';
import type { SmtpSettings } from './smtp-settings.ts';
import { connectThroughProxy, ProxyFailure, type ProxyEndpoint } from './socks-proxy.ts';
import { proveProxy, type ProxyProof } from './socks-handshake.ts';

/** `auth`: how the proxy let us in (its greeting and password step, proven before any mail server). */
export type ProxyCheck =
  | { proxy: string; state: 'ok'; host: string; auth: ProxyProof['auth'] }
  | { proxy: string; state: 'failed'; message: string }
  | { proxy: string; state: 'no_port_25'; hosts: string[]; auth: ProxyProof['auth'] }
  | { proxy: string; state: 'not_checked'; reason: string; auth: ProxyProof['auth'] };

export async function checkProxy(proxy: ProxyEndpoint, settings: SmtpSettings): Promise<ProxyCheck> {
  // First its greeting and password, which need no DNS: a wrong password is told whatever DNS does.
  let auth: ProxyProof['auth'];
  try {
    ({ auth } = await proveProxy(proxy, settings.timeoutMs));
  } catch (error) {
    if (error instanceof ProxyFailure) return { proxy: proxy.label, state: 'failed', message: error.message };
    throw error;
  }
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
      return { proxy: proxy.label, state: 'ok', host: host.name, auth };
    } catch (error) {
      if (error instanceof ProxyFailure) return { proxy: proxy.label, state: 'failed', message: error.message };
      if (!(error instanceof SmtpFailure)) throw error;
      // The server spoke, then hung up: port 25 is reachable through this proxy.
      if (error.greeted) return { proxy: proxy.label, state: 'ok', host: host.name, auth };
    }
  }
  if (tried.length === 0) {
    const reason = 'DNS did not answer for the probe domains, so port 25 through it was not tried';
    return { proxy: proxy.label, state: 'not_checked', reason, auth };
  }
  return { proxy: proxy.label, state: 'no_port_25', hosts: tried, auth };
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

/** How the proxy let us in, as the start of a sentence. */
const wayIn: Record<ProxyProof['auth'], string> = {
  password: 'answers and took its user name and password',
  none: 'answers (it asks for no password)',
  none_needed:
    'answers, but let us in without the password set for it: anyone who can reach it may use it, so keep it ' +
    'behind a firewall',
};

/** The finding in a sentence for a person: which proxy, what happened, what to do. */
export function describeProxyCheck(check: ProxyCheck, port: number): string {
  switch (check.state) {
    case 'ok':
      return `Proxy ${check.proxy}: works; it ${wayIn[check.auth]}, and ${check.host} answered on port ${port} through it.`;
    case 'failed':
      return `${check.message}. Live checks will not use it until it answers; check its address and password.`;
    case 'no_port_25':
      return (
        `Proxy ${check.proxy}: ${wayIn[check.auth]}, but no mail server answered through it on port ${port} ` +
        `(${check.hosts.join(', ')}). Its own network may block port ${port}.`
      );
    case 'not_checked':
      return `Proxy ${check.proxy}: ${wayIn[check.auth]}; port ${port} through it not checked (${check.reason}).`;
  }
}
