// Turns what a conversation (or DNS, or the port-25 finding) said into what happens to each queued
// address: a verdict now, or another try later on the schedule its trouble calls for. Only a
// definitive verdict is ever billed; everything here that is not one is `unknown` or tried again.
import { isDisposableDomain, isRoleLocalPart } from '../../../email/address-lists.ts';
import type { MailboxProvider } from '../../../email/mailbox-providers.ts';
import type { Verdict } from '../engine.ts';
import type { Port25State } from '../../store/port25-store.ts';
import type { QueuedAddress } from '../../store/probe-queue-store.ts';
import type { DomainProbe, RateRetry } from './domain-prober.ts';
import { isFreeMailboxDomain } from '../../../email/mailbox-providers.ts';
import type { SmtpSettings } from './smtp-settings.ts';
import { localEngineReasons } from '../../../wire/assumptions.ts';
import { acceptAllProviderOf } from './accept-all-providers.ts';

export type Decisions = {
  verdicts: { batchId: string; seq: number; verdict: Verdict }[];
  retries: { batchId: string; seq: number; notBefore: number; noTry?: boolean }[];
};

type Retry =
  | 'greylisted'
  | 'host_busy'
  | 'dropped'
  | 'server_error'
  | 'no_connect'
  | 'timeout'
  | 'dns_failed'
  /** Taken only in a transaction of its own: asked again soon, in a new conversation. */
  | 'ask_alone';

/** A rate reply that never let up is said as what it is. */
const givenUpAs: Partial<Record<Retry, string>> = { host_busy: 'rate_limited' };

const localPartOf = (email: string) => email.slice(0, email.lastIndexOf('@'));
export const rcptAddress = (email: string, asciiDomain: string) => `${localPartOf(email)}@${asciiDomain}`;

type Outcome = { result: string; reason: string; reply?: string; tls?: Verdict['smtpTls'] };

/** The address's verdict, as the decisions carry it. */
function verdictFor(
  item: QueuedAddress,
  where: { domain: string; provider: MailboxProvider },
  outcome: Outcome,
): Decisions['verdicts'][number] {
  const { domain, provider } = where;
  return { batchId: item.batchId, seq: item.seq, verdict: verdictOf(item.email, domain, provider, outcome) };
}

function verdictOf(email: string, domain: string, provider: MailboxProvider, outcome: Outcome): Verdict {
  return {
    result: outcome.result,
    reason: outcome.reason,
    role: isRoleLocalPart(localPartOf(email)),
    disposable: isDisposableDomain(domain),
    provider,
    free: isFreeMailboxDomain(domain),
    ...(outcome.reply ? { smtpReply: outcome.reply } : {}),
    ...(outcome.tls ? { smtpTls: outcome.tls } : {}),
  };
}

/** The only ways out refused us (a wrong password, no port 25): nobody was asked, nothing is billed. */
export const proxyRefusedOutcome = (failure: Error) => ({
  result: 'unknown',
  reason: localEngineReasons.proxyRefused,
  reply: failure.message,
});

/** Every address gets the same verdict (a domain with no mail, a blocked port). */
export function sameVerdict(
  work: readonly QueuedAddress[],
  domain: string,
  provider: MailboxProvider,
  outcome: { result: string; reason: string; reply?: string },
): Decisions {
  return {
    verdicts: work.map((item) => verdictFor(item, { domain, provider }, outcome)),
    retries: [],
  };
}

/** Another try on the schedule for its trouble, or `unknown` with that trouble as reason once tries run out. */
export function retryOrGiveUp(
  item: QueuedAddress,
  trouble: Retry,
  reply: string | undefined,
  context: { domain: string; provider: MailboxProvider; settings: SmtpSettings; now: number; rateRetry?: RateRetry },
  decisions: Decisions,
  /** What the server's words said, when tries run out; else the trouble itself. */
  giveUp?: string,
): void {
  const { settings, now, rateRetry } = context;
  if (trouble === 'host_busy' && giveUp === 'rate_limited' && rateRetry && !rateRetry.countsTry) {
    // The server is teaching its pace: asked again at the pace it allows, with no try counted.
    decisions.retries.push({ batchId: item.batchId, seq: item.seq, notBefore: rateRetry.notBefore, noTry: true });
    return;
  }
  const schedule = settings.greylistRetryMs;
  if (item.tries < schedule.length) {
    // Greylisting wants minutes; a busy host its back-off (a learned pace its own); else a short wait.
    const wait =
      trouble === 'greylisted'
        ? schedule[item.tries]!
        : trouble === 'host_busy'
          ? settings.backoffMs
          : settings.connectRetryMs;
    const notBefore = trouble === 'host_busy' && rateRetry ? rateRetry.notBefore : now + wait;
    decisions.retries.push({ batchId: item.batchId, seq: item.seq, notBefore });
    return;
  }
  decisions.verdicts.push(
    verdictFor(item, context, {
      result: 'unknown',
      reason: giveUp ?? givenUpAs[trouble] ?? trouble,
      ...(reply ? { reply } : {}),
    }),
  );
}

/** What one conversation decided for each address it was given. */
export function decideProbe(
  work: readonly QueuedAddress[],
  probe: DomainProbe,
  context: { domain: string; provider: MailboxProvider; settings: SmtpSettings; now: number; port25: Port25State },
): Decisions {
  const decisions: Decisions = { verdicts: [], retries: [] };
  const reached = probe.attempts.some((attempt) => !attempt.failure);
  // A catch-all at a provider that accepts every recipient says so (accept-all-providers.ts).
  const acceptsAll = acceptAllProviderOf(probe.attempts.find((attempt) => !attempt.failure)?.host);
  const progressed = [...probe.outcomes.values()].some((outcome) => outcome.kind === 'verdict');
  const lastFailure = probe.attempts.at(-1)?.failure;
  const retryContext = probe.rateRetry ? { ...context, rateRetry: probe.rateRetry } : context;
  for (const item of work) {
    const outcome = probe.outcomes.get(rcptAddress(item.email, context.domain));
    if (outcome?.kind === 'verdict') {
      const reason = outcome.result === 'catch_all' && acceptsAll ? 'accept_all_provider' : outcome.reason;
      decisions.verdicts.push(
        verdictFor(item, context, {
          ...outcome,
          reason,
          ...(probe.tls ? { tls: probe.tls } : {}),
        }),
      );
    } else if (outcome?.kind === 'retry' && outcome.reason === 'ask_alone' && progressed) {
      // Wanted in a transaction of its own while this one settled others: asked again at once, with no try
      // counted, as each new conversation settles at least its first recipient.
      decisions.retries.push({ batchId: item.batchId, seq: item.seq, notBefore: context.now, noTry: true });
    } else if (outcome?.kind === 'retry') {
      retryOrGiveUp(item, outcome.reason, outcome.reply, retryContext, decisions, outcome.giveUp);
    } else if (!reached && lastFailure) {
      const trouble =
        lastFailure.kind === 'timeout' ? 'timeout' : lastFailure.kind === 'protocol' ? 'server_error' : 'no_connect';
      if (context.port25 === 'blocked') {
        decisions.verdicts.push(
          verdictFor(item, context, {
            result: 'unknown',
            reason: localEngineReasons.port25Blocked,
          }),
        );
      } else if (context.port25 === 'open') {
        // Other mail servers answer us, so this one is down or drops strangers: that is the answer.
        decisions.verdicts.push(
          verdictFor(item, context, {
            result: 'unknown',
            reason: trouble,
            reply: lastFailure.message,
          }),
        );
      } else retryOrGiveUp(item, trouble, lastFailure.message, context, decisions);
    }
    // Not asked (no slot came in time): it stays queued as it was, and that was not a try.
  }
  return decisions;
}
