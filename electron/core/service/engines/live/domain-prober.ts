// One conversation about one domain's addresses: the domain's mail hosts in preference order until one
// answers, then EHLO, STARTTLS when offered, MAIL FROM, a catch-all probe when the domain has none on
// record, and one RCPT per address, each at its paced time; then RSET and QUIT. Never DATA. A few failed
// recipients end a conversation early (the rest wait for the next one): a server counts every refused
// command against its client, slows it after ten (Postfix's soft limit) and hangs up after twenty.
import { createHash } from 'node:crypto';
import type { AddressOutcome, DomainProbe } from './domain-probe.ts';
import type { MailHost } from './mx-lookup.ts';
import {
  meaningOf,
  type AskedAbout,
  refusalReason,
  refusesSender,
  replyLine,
  type ReplyMeaning,
  type ReplyStage,
} from './smtp-replies.ts';
import { acceptedBeforeChecks, toldMailboxesApart } from './unread-refusals.ts';
import { openSmtpSession, SmtpFailure, type SmtpReply, type SmtpSession } from './smtp-session.ts';
import { connectThroughProxy, proxyFailureNow, type ProxyEndpoint } from './socks-proxy.ts';

export type { DomainProbe, RateRetry } from './domain-probe.ts';

export type ProbeSettings = {
  helo: string;
  mailFrom: string;
  port: number;
  timeoutMs: number;
  /** Recipients a server may refuse (or defer) on one connection before it is closed. */
  failedRcptPerConnection: number;
};

/**
 * A local part no real person has, for the catch-all probe. The same one for a domain every time, so a
 * greylisting server that deferred it once accepts or rejects it on the retry it asked for.
 */
const improbableLocalPart = (domain: string) =>
  `sift-${createHash('sha256').update(`catch-all probe ${domain}`).digest('hex').slice(0, 18)}`;

export async function probeDomain(request: {
  domain: string;
  hosts: MailHost[];
  /** `local@asciiDomain`, as sent in RCPT TO. */
  addresses: string[];
  /** What is on record about the domain accepting every address; undefined asks the server once. */
  knownCatchAll: boolean | undefined;
  settings: ProbeSettings;
  /** Resolves when the next probe may go out, or with false when no slot is left on this connection. */
  nextSlot: () => Promise<boolean>;
  /** The proxy every connection goes through; none: direct. Its own failure (ProxyFailure) is thrown. */
  via?: ProxyEndpoint;
  /** Our other connections open to this server when this one started. */
  othersOpen?: number;
  /** After each RCPT's reply: whether it was a rate reply, so the pace the server allows can be learned. */
  onAnswer?: (rateLimited: boolean) => Promise<void>;
  /** An address got its verdict (written when the conversation ends): the estimate counts it as done. */
  onSettled?: () => void;
}): Promise<DomainProbe> {
  const result: DomainProbe = {
    outcomes: new Map(),
    attempts: [],
    end: 'failed',
    deferrals: 0,
    accepted: 0,
    unread: [],
    ...(request.knownCatchAll === undefined ? {} : { catchAll: request.knownCatchAll }),
  };
  const { settings } = request;
  const settleAll = (outcome: AddressOutcome) => {
    for (const address of request.addresses) if (!result.outcomes.has(address)) result.outcomes.set(address, outcome);
  };

  for (const host of request.hosts) {
    let session: SmtpSession | undefined;
    try {
      const address = host.addresses[0]!;
      const { via } = request;
      session = await openSmtpSession({
        address,
        port: settings.port,
        servername: host.name,
        timeoutMs: settings.timeoutMs,
        ...(via ? { socket: await connectThroughProxy(via, address, settings.port, settings.timeoutMs) } : {}),
      });
    } catch (error) {
      if (!(error instanceof SmtpFailure)) throw error;
      // Through a proxy, a server that never spoke may be a proxy that went away: that is thrown.
      const proxyGone = request.via && !error.greeted && (await proxyFailureNow(request.via, settings.timeoutMs));
      if (proxyGone) throw proxyGone;
      result.attempts.push({ host: host.name, failure: error });
      continue;
    }
    result.attempts.push({ host: host.name });
    try {
      await converse(session, request, result, settleAll);
    } catch (error) {
      if (!(error instanceof SmtpFailure)) throw error;
      const proxyGone = request.via && (await proxyFailureNow(request.via, settings.timeoutMs));
      // Hung up or went silent mid-dialogue: what was answered stands, the rest is asked again later;
      // when it was the proxy that went, the rest was simply not asked.
      if (proxyGone) result.proxyFailure = proxyGone;
      else if (error.kind === 'protocol') settleAll({ kind: 'retry', reason: 'server_error', reply: error.message });
      else settleAll({ kind: 'retry', reason: 'dropped', reply: error.message });
      result.end = 'failed';
    } finally {
      await session.close();
    }
    settleUnread(result);
    return result;
  }
  return result;
}

/** Only DATA earns a 3xx reply, and Sift never sends DATA: a server answering 3xx is after a message. */
const wantsMessage = (reply: SmtpReply) => reply.code >= 300 && reply.code < 400;

async function converse(
  session: SmtpSession,
  request: Parameters<typeof probeDomain>[0],
  result: DomainProbe,
  settleAll: (outcome: AddressOutcome) => void,
): Promise<void> {
  let stage: ReplyStage = 'greeting';
  /** A recipient as a reply is read about it: a reply that names another address is not about it. */
  const askedOf = (recipient: string): AskedAbout => ({ recipient, sender: request.settings.mailFrom });
  const refuse = (reply: SmtpReply, beforeRecipients: boolean, asked?: AskedAbout) => {
    const meaning = meaningOf(reply, asked);
    if (wantsMessage(reply)) {
      // The session has hung up on it; a server that asks for a message says nothing about anyone.
      result.end = 'failed';
      return settleAll({ kind: 'verdict', result: 'unknown', reason: 'server_error', reply: replyLine(reply) });
    }
    if (reply === session.banner && meaning.kind === 'busy' && (request.othersOpen ?? 0) > 0) {
      // Turned away at the greeting while another of our connections was open there: the server allows
      // fewer at once than we tried (Exim's smtp_accept_max_per_host, say). Nobody was asked: not a try,
      // and not a complaint about the pace.
      result.end = 'failed';
      result.crowded = true;
      return;
    }
    // Every reply that blames us (a blocklist, our name, our address) feeds the refused-sender finding.
    const ofSender = refusesSender(reply, beforeRecipients, asked);
    if (ofSender) result.senderRefused = replyLine(reply);
    let outcome: AddressOutcome;
    if (meaning.kind === 'busy') {
      result.end = 'busy';
      outcome = { kind: 'retry', reason: 'host_busy', reply: replyLine(reply), giveUp: meaning.reason };
    } else if (meaning.kind === 'deferred') {
      result.end = 'deferred';
      result.deferrals += 1;
      outcome = { kind: 'retry', reason: 'greylisted', reply: replyLine(reply), giveUp: meaning.reason };
    } else {
      // The server will not talk to us at all, or refused us ourselves: nothing is learned about any address.
      result.end = 'ok';
      const reason = beforeRecipients ? refusalReason(reply, stage) : unclearReason(meaning);
      outcome = { kind: 'verdict', result: 'unknown', reason, reply: replyLine(reply) };
    }
    settleAll(outcome);
    // A refusal of us, not of an address, is what any address of the domain would get now (a rate reply is
    // about our pace, and is learned as one).
    if (ofSender && meaning.kind !== 'busy') result.forEveryone = outcome;
  };
  if (session.banner.code !== 220) return refuse(session.banner, true);
  stage = 'ehlo';
  const hello = await session.hello(request.settings.helo);
  result.tls = hello.tls;
  if (hello.reply.code !== 250) return refuse(hello.reply, true);
  stage = 'mail';
  const from = await session.send(`MAIL FROM:<${request.settings.mailFrom}>`);
  if (from.code !== 250) return refuse(from, true);
  stage = 'rcpt';

  /** Recipients refused or deferred on this connection so far. */
  let failed = 0;
  /** The catch-all probe was deferred (greylisting): an acceptance now cannot be told from a catch-all's. */
  let probeDeferred = false;
  const refusedUs = (reply: SmtpReply, asked: AskedAbout) => refusesSender(reply, false, asked);
  const answered = async (meaning: ReplyMeaning) => {
    const rateLimited = meaning.kind === 'busy' && meaning.reason === 'rate_limited';
    if (rateLimited) result.rateLimited = true;
    await request.onAnswer?.(rateLimited);
  };
  if (request.knownCatchAll === undefined) {
    if (!(await request.nextSlot())) return;
    const probe = askedOf(`${improbableLocalPart(request.domain)}@${request.domain}`);
    const reply = await session.send(`RCPT TO:<${probe.recipient}>`);
    const meaning = meaningOf(reply, probe);
    await answered(meaning);
    if (wantsMessage(reply) || refusedUs(reply, probe) || meaning.kind === 'busy') return refuse(reply, false, probe);
    if (meaning.kind === 'accepted') result.catchAll = true;
    else if (meaning.kind === 'rejected' || meaning.kind === 'unread' || meaning.kind === 'unclear')
      result.catchAll = false;
    else {
      // Greylisted: each address is still asked now, so the server's clock starts for it too and the
      // retry it asks for settles it in one go; an acceptance waits for that retry.
      probeDeferred = true;
      result.deferrals += 1;
    }
    if (meaning.kind !== 'accepted') failed += 1;
  }

  result.end = 'ok';
  for (const address of request.addresses) {
    // The rest are not asked on this connection (not a try): the next conversation takes them up.
    if (failed >= request.settings.failedRcptPerConnection) break;
    if (!(await request.nextSlot())) break;
    const asked = askedOf(address);
    const reply = await session.send(`RCPT TO:<${address}>`);
    const meaning = meaningOf(reply, asked);
    await answered(meaning);
    const line = replyLine(reply);
    if (wantsMessage(reply) || refusedUs(reply, asked)) return refuse(reply, false, asked);
    if (meaning.kind === 'busy') {
      // A rate reply: this address is asked again after the host's back-off (a try, so a server that
      // always says so cannot hold a batch for ever); the rest were not asked, and that is not a try.
      result.end = 'busy';
      result.outcomes.set(address, { kind: 'retry', reason: 'host_busy', reply: line, giveUp: meaning.reason });
      return;
    }
    if (meaning.kind === 'alone') {
      // Taken only in a transaction of its own (Outlook.com's other region): asked again in a new
      // conversation; not a refusal, so it counts no failure here.
      result.outcomes.set(address, { kind: 'retry', reason: 'ask_alone', reply: line, giveUp: 'server_error' });
      continue;
    }
    if (meaning.kind !== 'accepted') failed += 1;
    if (meaning.kind === 'accepted' && !acceptedBeforeChecks(address)) result.accepted += 1;
    if (meaning.kind === 'deferred') {
      result.deferrals += 1;
      result.outcomes.set(address, { kind: 'retry', reason: 'greylisted', reply: line, giveUp: meaning.reason });
    } else if (meaning.kind === 'accepted' && probeDeferred) {
      result.outcomes.set(address, { kind: 'retry', reason: 'greylisted', reply: line, giveUp: 'greylisted' });
    } else if (meaning.kind === 'accepted') {
      result.outcomes.set(
        address,
        result.catchAll
          ? { kind: 'verdict', result: 'catch_all', reason: 'accept_all_domain', reply: line }
          : { kind: 'verdict', result: 'valid', reason: 'accepted_email', reply: line },
      );
    } else if (meaning.kind === 'rejected') {
      result.outcomes.set(address, { kind: 'verdict', result: 'invalid', reason: meaning.reason, reply: line });
    } else {
      // Unread refusals are unknown too, until the conversation's end says whether the server told mailboxes apart.
      if (meaning.kind === 'unread') result.unread.push(address);
      result.outcomes.set(address, { kind: 'verdict', result: 'unknown', reason: meaning.reason, reply: line });
    }
    if (result.outcomes.get(address)?.kind === 'verdict') request.onSettled?.();
  }
  if (result.deferrals > 0 && result.deferrals >= result.outcomes.size) result.end = 'deferred';
  await session.send('RSET').catch(() => undefined);
}

/** Refusals in words Sift cannot read become `invalid` where the server told mailboxes apart (unread-refusals.ts). */
function settleUnread(result: DomainProbe): void {
  if (!toldMailboxesApart(result)) return;
  for (const address of result.unread) {
    const outcome = result.outcomes.get(address);
    if (outcome?.kind === 'verdict')
      result.outcomes.set(address, { ...outcome, result: 'invalid', reason: 'refused_mailbox' });
  }
}

/** The reason an address gets from a reply that settles nothing about it. */
const unclearReason = (meaning: ReplyMeaning) => ('reason' in meaning ? meaning.reason : 'server_error');
