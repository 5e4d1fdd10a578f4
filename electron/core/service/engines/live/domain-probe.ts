// What one conversation about a domain found (domain-prober.ts has it): each address's outcome, the hosts
// tried, how it ended, and what it taught about the server and about us.
import type { SmtpFailure } from './smtp-session.ts';
import type { ProxyFailure } from './socks-proxy.ts';

export type AddressOutcome =
  | { kind: 'verdict'; result: 'valid' | 'invalid' | 'catch_all' | 'unknown'; reason: string; reply?: string }
  /**
   * Ask again later: the server deferred, was busy, hung up, or broke the protocol before answering about
   * this address. `giveUp` is the reason it gets when its tries run out (what the server's words said).
   */
  | {
      kind: 'retry';
      reason: 'greylisted' | 'host_busy' | 'dropped' | 'server_error' | 'ask_alone';
      reply?: string;
      giveUp?: string;
    };

type HostAttempt = { host: string; failure?: SmtpFailure };

export type DomainProbe = {
  /** Per address; an address missing here was not asked about (no slot came in time): it is not a try. */
  outcomes: Map<string, AddressOutcome>;
  catchAll?: boolean;
  /** Every host tried, in order; a failure before any greeting is what a blocked port 25 looks like. */
  attempts: HostAttempt[];
  /** How the conversation went, for the host's pacing. */
  end: 'ok' | 'busy' | 'deferred' | 'failed';
  deferrals: number;
  tls?: 'none' | 'ok' | 'certificate_not_trusted';
  /** The proxy went away mid-conversation: the addresses not yet answered were not asked (not a try). */
  proxyFailure?: ProxyFailure;
  /** The server refused us, the sender (a blocklist, our address or name), not an address: its reply. */
  senderRefused?: string;
  /**
   * What a refusal of the sender settled for every address of this conversation: the answer the server
   * gives any address of the domain now, asked or not (the engine gives it to the domain's other due ones).
   */
  forEveryone?: AddressOutcome;
  /** Turned away at the greeting while others of ours were open there: it allows fewer at once. */
  crowded?: boolean;
  /** A recipient got a rate reply ("too many recipients"): the server rations them per client. */
  rateLimited?: boolean;
  /** Set by the engine after a rate reply: when its address is asked again, and whether that counts a try. */
  rateRetry?: RateRetry;
  /** Recipients this conversation accepted: proof the server is not refusing us. */
  accepted: number;
  /** Addresses refused in words Sift cannot read, settled when the conversation ends (settleUnread). */
  unread: string[];
};

/** When an address a rate reply turned away is asked again, and whether that counts a try (rate-learning.ts). */
export type RateRetry = { notBefore: number; countsTry: boolean };
