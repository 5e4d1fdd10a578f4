// Whether this machine may reach mail servers at all: most home and office networks and many clouds
// block outbound port 25. Tried on purpose at `sift service` start, against a few big providers'
// mail hosts (DNS must answer first: a machine with no DNS has learned nothing about port 25).
import type { SqlConnection } from '../../../storage/sql-connection.ts';
import { recordPort25Check } from '../../store/port25-store.ts';
import { createMailRouteLookup } from './mx-lookup.ts';
import { openSmtpSession, SmtpFailure } from './smtp-session.ts';
import type { SmtpSettings } from './smtp-settings.ts';

export type Port25Check =
  { state: 'open'; host: string } | { state: 'blocked'; hosts: string[] } | { state: 'not_checked'; reason: string };

/**
 * Tries now, records nothing: the app's first-run question and Settings ▸ Test ask this. The probe domains'
 * hosts are tried side by side, so a blocked port (silence until the timeout) costs one timeout, not three.
 */
export async function probePort25(settings: SmtpSettings): Promise<Port25Check> {
  const lookup = createMailRouteLookup(settings);
  const tries = settings.port25ProbeDomains.map(async (domain) => {
    const route = await lookup(domain);
    if (route.kind !== 'hosts') return undefined;
    const host = route.hosts[0]!;
    try {
      const session = await openSmtpSession({
        address: host.addresses[0]!,
        port: settings.port,
        servername: host.name,
        timeoutMs: settings.timeoutMs,
      });
      await session.close();
      return { host: host.name, open: true };
    } catch (error) {
      // A server that spoke and then hung up is reachable all the same.
      return { host: host.name, open: !(error instanceof SmtpFailure) || error.greeted };
    }
  });
  const tried = (await Promise.all(tries)).filter((outcome) => outcome !== undefined);
  const open = tried.find((outcome) => outcome.open);
  if (open) return { state: 'open', host: open.host };
  if (tried.length === 0) return { state: 'not_checked', reason: 'DNS did not answer for the probe domains' };
  return { state: 'blocked', hosts: tried.map((outcome) => outcome.host) };
}

/** Tries now and records what it found, so the engine acts on it (`sift service` at start). */
export async function checkPort25(db: SqlConnection, settings: SmtpSettings, now: () => number): Promise<Port25Check> {
  const check = await probePort25(settings);
  if (check.state !== 'not_checked') await recordPort25Check(db, check.state, now(), settings.connectRetryMs);
  return check;
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
