// Whether this machine may reach mail servers at all: most home and office networks and many clouds
// block outbound port 25. Tried on purpose at `sift service` start, against a few big providers'
// mail hosts (DNS must answer first: a machine with no DNS has learned nothing about port 25).
import type { SqlConnection } from '../../storage/sql-connection.ts';
import { recordPort25Check } from '../store/port25-store.ts';
import { createMailRouteLookup } from './mx-lookup.ts';
import { openSmtpSession, SmtpFailure } from './smtp-session.ts';
import type { SmtpSettings } from './smtp-settings.ts';

export type Port25Check =
  { state: 'open'; host: string } | { state: 'blocked'; hosts: string[] } | { state: 'not_checked'; reason: string };

export async function checkPort25(db: SqlConnection, settings: SmtpSettings, now: () => number): Promise<Port25Check> {
  const lookup = createMailRouteLookup(settings);
  const tried: string[] = [];
  for (const domain of settings.port25ProbeDomains) {
    const route = await lookup(domain);
    if (route.kind !== 'hosts') continue;
    const host = route.hosts[0]!;
    tried.push(host.name);
    try {
      const session = await openSmtpSession({
        address: host.addresses[0]!,
        port: settings.port,
        servername: host.name,
        timeoutMs: settings.timeoutMs,
      });
      await session.close();
      await recordPort25Check(db, 'open', now(), settings.connectRetryMs);
      return { state: 'open', host: host.name };
    } catch (error) {
      if (!(error instanceof SmtpFailure) || error.greeted) return { state: 'open', host: host.name };
    }
  }
  if (tried.length === 0) return { state: 'not_checked', reason: 'DNS did not answer for the probe domains' };
  await recordPort25Check(db, 'blocked', now(), settings.connectRetryMs);
  return { state: 'blocked', hosts: tried };
}

/** The finding in a sentence for a person running `sift service`. */
export function describePort25(check: Port25Check, port: number): string {
  if (check.state === 'open')
    return `Port ${port}: open (${check.host} answered). Live keys get real mail-server checks.`;
  if (check.state === 'not_checked') return `Port ${port}: not checked (${check.reason}).`;
  return (
    `Port ${port}: blocked. No mail server answered (${check.hosts.join(', ')}), so live checks will come back ` +
    `"unknown" (port_25_blocked) and are not billed. Run the service on a machine that may connect out on ` +
    `port ${port}, or use a hosted service.`
  );
}
