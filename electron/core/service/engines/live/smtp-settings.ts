// How the local engine talks to mail servers: who it says it is, whom it asks, and how politely.
// Defaults are conservative; a person running `sift service` on a server sets the HELO name and
// MAIL FROM to match their own DNS (see the README).
import { hostname } from 'node:os';
import type { ProxyEndpoint } from './socks-proxy.ts';

export type SmtpSettings = {
  /** The name given in EHLO/HELO; its DNS should point back at the machine that probes. */
  helo: string;
  /** The envelope sender of every probe; a domain the person running the service owns. */
  mailFrom: string;
  /** DNS servers as `host` or `host:port`; empty means the system's. */
  resolvers: string[];
  /** The mail servers' port: 25, except in tests. */
  port: number;
  /** Probes (RCPTs) per second to one mail host; all of a big provider's hosts share one budget. */
  perHostRate: number;
  /** Connections open at once to one mail host or provider. */
  perHostConcurrency: number;
  /** Connections open at once over all hosts. */
  concurrency: number;
  /** How long one step of a conversation (connect, banner, each reply) may take. */
  timeoutMs: number;
  /** Waits before each retry of an address a server deferred (greylisting expects minutes). */
  greylistRetryMs: number[];
  /** A connection that could not be made is tried again after this, until the schedule runs out. */
  connectRetryMs: number;
  /** RCPTs sent on one connection before it is closed and a new one is opened. */
  rcptPerConnection: number;
  /**
   * Recipients refused or deferred on one connection before it is closed: servers count every refused
   * command against a client (Postfix slows it after 10 and hangs up at 20; others sooner), and a client
   * that keeps guessing addresses on one connection looks like a harvester.
   */
  failedRcptPerConnection: number;
  /** How long a 421 or a burst of deferrals keeps a host at half its rate. */
  backoffMs: number;
  /** The least wait before a probe for a server's rate window after a rate refusal (rate-learning.ts). */
  rateProbeWaitMs: number;
  /**
   * Refusals while probing for a server's window before each counts a try for its address: by then the
   * window is 1.25^12 (15) times the first gap, and a server that never takes one again must not hold a
   * batch for ever.
   */
  rateProbeFreeRefusals: number;
  /** Distinct mail hosts of unrelated domains that must fail to connect before port 25 counts as blocked. */
  blockedAfterHosts: number;
  /** Domains whose mail hosts `sift service` tries at start to see whether port 25 is open. */
  port25ProbeDomains: string[];
  /** How long a domain's catch-all finding is trusted. */
  catchAllCacheMs: number;
  /** Bounds on how long a DNS answer is kept, whatever its TTL says. */
  dnsCacheMinMs: number;
  dnsCacheMaxMs: number;
  /** SOCKS5 proxies every conversation goes out through (a pool); none: straight from this machine. */
  proxies: ProxyEndpoint[];
  /** The public address checks leave from, looked up in DNS blocklists before a batch; else the HELO name's. */
  sendingAddress?: string;
};

const minute = 60_000;

export function smtpSettings(overrides: Partial<SmtpSettings> = {}): SmtpSettings {
  const helo = overrides.helo ?? hostname();
  return {
    helo,
    mailFrom: `verify@${helo}`,
    resolvers: [],
    port: 25,
    perHostRate: 2,
    perHostConcurrency: 2,
    concurrency: 20,
    timeoutMs: 15_000,
    greylistRetryMs: [5 * minute, 10 * minute, 20 * minute, 40 * minute],
    connectRetryMs: minute,
    rcptPerConnection: 20,
    failedRcptPerConnection: 5,
    backoffMs: 5 * minute,
    rateProbeWaitMs: 250,
    rateProbeFreeRefusals: 12,
    blockedAfterHosts: 3,
    port25ProbeDomains: ['gmail.com', 'outlook.com', 'yahoo.com'],
    catchAllCacheMs: 24 * 60 * minute,
    dnsCacheMinMs: minute,
    dnsCacheMaxMs: 24 * 60 * minute,
    proxies: [],
    ...overrides,
  };
}
