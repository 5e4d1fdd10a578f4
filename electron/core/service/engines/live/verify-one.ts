// One address asked at once (POST /verify, the app's single check): its domain's route, the port-25
// finding, then one conversation that waits its turn in the host's budget, but not for long. Its tries
// are used up at once: whatever is not a verdict now is `unknown` with its reason.
import type { SqlConnection } from '../../../storage/sql-connection.ts';
import { localEngineReasons } from '../../../wire/assumptions.ts';
import { port25Finding } from '../../store/port25-store.ts';
import type { QueuedAddress } from '../../store/probe-queue-store.ts';
import { ProbeError, type Verdict } from '../engine.ts';
import type { DomainProbe } from './domain-prober.ts';
import { providerOfMailHost } from './mail-hosts.ts';
import type { MailRoute } from './mx-lookup.ts';
import { decideProbe, proxyRefusedOutcome, sameVerdict, type Decisions } from './probe-outcomes.ts';
import type { SmtpSettings } from './smtp-settings.ts';
import type { ProxyFailure } from './socks-proxy.ts';

/** What a domain with no mail host is, by why. */
export const noMailReason = {
  null_mx: localEngineReasons.nullMx,
  no_domain: 'invalid_domain',
  no_mail_host: 'invalid_domain',
} as const;

/** One paced conversation's end: its probe, a time to ask again, or the only ways out refusing us. */
export type Conversation =
  { probe: DomainProbe; egress: string } | { retryAt: number } | { proxyRefused: ProxyFailure };

export async function verifyOne(
  engine: {
    db: SqlConnection;
    settings: SmtpSettings;
    now: () => number;
    routeOf: (domain: string) => Promise<MailRoute>;
    converse: (
      domain: string,
      route: Extract<MailRoute, { kind: 'hosts' }>,
      addresses: string[],
    ) => Promise<Conversation>;
    learn: (domain: string, probe: DomainProbe, egress: string) => Promise<void>;
  },
  local: string,
  asciiDomain: string,
): Promise<Verdict> {
  const { db, settings, now } = engine;
  const route = await engine.routeOf(asciiDomain);
  const email = `${local}@${asciiDomain}`;
  const item: QueuedAddress = { batchId: '', seq: 0, email, tries: Number.MAX_SAFE_INTEGER };
  const one = (decisions: Decisions) => {
    const verdict = decisions.verdicts[0]?.verdict;
    if (!verdict) throw new ProbeError('The mail host could not be checked now.');
    return verdict;
  };
  if (route.kind === 'dns_failed') throw new ProbeError(route.message);
  if (route.kind === 'no_mail') {
    return one(sameVerdict([item], asciiDomain, 'Other', { result: 'invalid', reason: noMailReason[route.reason] }));
  }
  const provider = providerOfMailHost(route.hosts[0]!.name);
  if ((await port25Finding(db)).state === 'blocked') {
    return one(
      sameVerdict([item], asciiDomain, provider, { result: 'unknown', reason: localEngineReasons.port25Blocked }),
    );
  }
  const deadline = now() + settings.timeoutMs;
  for (;;) {
    const answer = await engine.converse(asciiDomain, route, [email]);
    if ('proxyRefused' in answer) {
      return one(sameVerdict([item], asciiDomain, provider, proxyRefusedOutcome(answer.proxyRefused)));
    }
    if ('probe' in answer) {
      await engine.learn(asciiDomain, answer.probe, answer.egress);
      const found = (await port25Finding(db)).state;
      const port25 = found === 'unchecked' ? 'open' : found;
      return one(decideProbe([item], answer.probe, { domain: asciiDomain, provider, settings, now: now(), port25 }));
    }
    if (answer.retryAt > deadline) throw new ProbeError('The mail host is busy; try again in a minute.');
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, answer.retryAt - now())));
  }
}
