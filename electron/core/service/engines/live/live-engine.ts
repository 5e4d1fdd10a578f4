// The local verification engine for live keys: real DNS and SMTP checks, paced per mail host. The
// batch worker calls `runQueue` each round; it starts a conversation for every due domain whose host
// has budget, up to the global concurrency cap, and each conversation writes its own verdicts. All
// state (queue, budgets, domain findings) is in the service's store; only open sockets live here.
import type { SqlConnection } from '../../../storage/sql-connection.ts';
import type { ServiceConfig } from '../../service-config.ts';
import type { SmtpSettings } from './smtp-settings.ts';
import { localEngineReasons } from '../../../wire/assumptions.ts';
import type { VerificationEngine } from '../engine.ts';
import { cachedCatchAll, cachedRoute, storeRoute } from '../../store/mail-domains-store.ts';
import { capHostRates } from '../../store/mail-hosts-store.ts';
import { port25Finding, takePort25Recheck } from '../../store/port25-store.ts';
import {
  dueDomains,
  enqueueLiveBatches,
  renewDomainLeases,
  takeDomainWork,
  type QueuedAddress,
  moreDueWork,
} from '../../store/probe-queue-store.ts';
import { renewEveryMs, tellTakeover } from '../../work-leases.ts';
import { outcomeWrites } from './outcome-writes.ts';
import { probeDomain, type DomainProbe } from './domain-prober.ts';
import { learnFromProbe } from './probe-learning.ts';
import { budgetKeyOf, providerOfMailHost } from './mail-hosts.ts';
import { createMailRouteLookup, type MailRoute } from './mx-lookup.ts';
import { createProxyPool, egressLabels } from './proxy-pool.ts';
import { estimateCache, estimatePace } from './pace-estimate.ts';
import { createConnectionLimits } from './connection-limits.ts';
import { pacedSlots } from './paced-slots.ts';
import { createRateLearning } from './rate-learning.ts';
import { ProxyFailure } from './socks-proxy.ts';
import { noMailReason, verifyOne, type Conversation } from './verify-one.ts';
import {
  decideProbe,
  proxyRefusedOutcome,
  rcptAddress,
  retryOrGiveUp,
  sameVerdict,
  type Decisions,
} from './probe-outcomes.ts';

export type LiveEngine = VerificationEngine & {
  /** Starts conversations for due work; answers how many it started. */
  runQueue(): Promise<number>;
  /** New settings (a proxy added in the app, say) for every conversation started from now on. */
  reconfigure(settings: SmtpSettings): Promise<void>;
  stop(): Promise<void>;
};

/** A batch's estimate is worked out at most this often; status calls in between get the last one. */
const estimateEveryMs = 2000;
/** The most of a domain's other due addresses one refusal of the sender answers for (work per page, bounded). */
const sameAnswerAtMost = 1000;

export function createLiveEngine(
  db: SqlConnection,
  config: ServiceConfig,
  /** This process's id: the owner of the connections it opens. */
  owner: string,
): LiveEngine {
  // Replaced whole by `reconfigure`; a conversation under way keeps the settings it started with.
  let settings = config.smtp;
  let lookup = createMailRouteLookup({ ...settings });
  let proxies = createProxyPool(settings.proxies, settings.connectRetryMs);
  const tasks = new Set<Promise<void>>();
  /** Domains a conversation of this process is working on (their queue leases stand). */
  const busyDomains = new Set<string>();
  /** Per domain, addresses conversations under way have settled but not yet written (for the estimate). */
  const settled = new Map<string, number>();
  let wake = () => {};
  let stopping = false;
  const { write, checkFailed } = outcomeWrites(db, config, () => settings.connectRetryMs);
  const estimates = estimateCache(estimateEveryMs);
  const limits = createConnectionLimits();
  const paces = createRateLearning(() => settings);
  /** Started at once; `runQueue` and `verify` wait for it (its failure is theirs, not an unhandled one). */
  let ready = capHostRates(db, settings);
  ready.catch(() => undefined);

  async function routeOf(domain: string): Promise<MailRoute> {
    const cached = await cachedRoute(db, domain, config.now());
    if (cached) return cached;
    const route = await lookup(domain);
    if (!stopping) await storeRoute(db, domain, route, config.now());
    return route;
  }

  /** One paced conversation; resolves with the probe and the budget key it spent. */
  async function converse(
    domain: string,
    route: Extract<MailRoute, { kind: 'hosts' }>,
    addresses: string[],
  ): Promise<Conversation> {
    // The settings and proxies of when it started, whatever `reconfigure` does meanwhile.
    const [smtp, pool] = [settings, proxies];
    const egress = pool.pick(domain, config.now());
    if ('retryAt' in egress) return egress;
    // The budget of the first host, which is the one asked unless it cannot be reached.
    const key = budgetKeyOf(route.hosts[0]!, egress.label);
    const knownCatchAll = await cachedCatchAll(db, domain, config.now());
    const paced = pacedSlots(db, paces, { key, owner }, smtp, config.now, () => stopping);
    const reservation = await paced.reserve(limits.allowed(key, smtp.perHostConcurrency, config.now()));
    if ('retryAt' in reservation) return reservation;
    let probe: DomainProbe | undefined;
    const proxyFailed = (failure: ProxyFailure) => {
      if (egress.via && pool.failed(egress.via, config.now())) {
        console.error(`sift service: ${failure.message}. Its work goes to the other proxies, or waits for it.`);
      }
    };
    try {
      probe = await probeDomain({
        domain,
        hosts: route.hosts,
        addresses,
        knownCatchAll,
        settings: smtp,
        nextSlot: paced.nextSlot,
        othersOpen: reservation.othersOpen,
        onAnswer: paced.onAnswer,
        onSettled: () => void settled.set(domain, (settled.get(domain) ?? 0) + 1),
        ...(egress.via ? { via: egress.via } : {}),
      });
      if (probe.proxyFailure) proxyFailed(probe.proxyFailure);
      if (probe.crowded) limits.crowded(key, reservation.othersOpen, config.now());
      await paced.rateRetry(probe);
      return { probe, egress: egress.label };
    } catch (error) {
      if (!(error instanceof ProxyFailure)) throw error;
      proxyFailed(error);
      // No mail server was asked: the addresses wait for another way out, with no try counted; when the
      // only ways out refuse us (a wrong password, no port 25), waiting changes nothing: that is the answer.
      const next = pool.pick(domain, config.now());
      if ('retryAt' in next && (error.kind === 'auth' || error.kind === 'not_allowed')) return { proxyRefused: error };
      return { retryAt: 'retryAt' in next ? next.retryAt : config.now() };
    } finally {
      if (!stopping) {
        await paced.release(probe);
      }
    }
  }

  async function work(domain: string, items: QueuedAddress[]): Promise<void> {
    const now = config.now();
    const route = await routeOf(domain);
    if (stopping) return;
    if (route.kind === 'dns_failed') {
      const decisions: Decisions = { verdicts: [], retries: [] };
      const context = { domain, provider: 'Other' as const, settings, now };
      for (const item of items) retryOrGiveUp(item, 'dns_failed', route.message, context, decisions);
      return write(domain, decisions);
    }
    if (route.kind === 'no_mail') {
      return write(
        domain,
        sameVerdict(items, domain, 'Other', { result: 'invalid', reason: noMailReason[route.reason] }),
      );
    }
    const provider = providerOfMailHost(route.hosts[0]!.name);
    const finding = await port25Finding(db);
    if (finding.state === 'blocked' && !(await takePort25Recheck(db, now, settings.connectRetryMs))) {
      return write(
        domain,
        sameVerdict(items, domain, provider, { result: 'unknown', reason: localEngineReasons.port25Blocked }),
      );
    }
    const answer = await converse(
      domain,
      route,
      items.map((item) => rcptAddress(item.email, domain)),
    );
    if (stopping) return;
    if ('retryAt' in answer) return write(domain, { verdicts: [], retries: [] }, answer.retryAt);
    if ('proxyRefused' in answer) {
      return write(domain, sameVerdict(items, domain, provider, proxyRefusedOutcome(answer.proxyRefused)));
    }
    await learnFromProbe(db, settings, domain, answer.probe, config.now(), busyDomains, answer.egress);
    const context = { domain, provider, settings, now: config.now(), port25: (await port25Finding(db)).state };
    // The server refused us, not an address: its answer is every due address's of the domain now, so they
    // keep one schedule and a batch ends on it, rather than each group asking in turn at the host's pace.
    const same = answer.probe.forEveryone;
    const more = same ? await moreDueWork(db, domain, config.now(), items, sameAnswerAtMost) : [];
    for (const item of more) answer.probe.outcomes.set(rcptAddress(item.email, domain), same!);
    await write(domain, decideProbe([...items, ...more], answer.probe, context));
  }

  // The domains this process works are held on a short lease, renewed while it lives: after a crash
  // another worker takes them up within a lease of the last renewal.
  const lease = (now: number) => ({ owner, until: now + config.workLeaseMs });
  const renewal = setInterval(() => {
    if (busyDomains.size === 0 || stopping) return;
    renewDomainLeases(db, owner, [...busyDomains], lease(config.now()).until).catch((error: unknown) =>
      console.error('sift service: could not renew the hold on the domains being checked:', error),
    );
  }, renewEveryMs(config.workLeaseMs));
  renewal.unref();

  return {
    async runQueue() {
      if (stopping) return 0;
      await ready;
      const now = config.now();
      await enqueueLiveBatches(db, now);
      const room = settings.concurrency - tasks.size;
      if (room <= 0) return 0;
      let started = 0;
      for (const domain of await dueDomains(db, now, room)) {
        if (stopping) break;
        const { items, takenFrom } = await takeDomainWork(db, domain, now, settings.rcptPerConnection, lease(now));
        if (items.length === 0) continue;
        if (takenFrom && takenFrom !== owner) tellTakeover(`the addresses at ${domain}`, takenFrom);
        started += 1;
        busyDomains.add(domain);
        const task = work(domain, items)
          .catch(async (error: unknown) => {
            if (stopping) return;
            console.error(`sift service: checking ${domain} failed:`, error);
            await checkFailed(domain, items, error);
          })
          .finally(() => {
            tasks.delete(task);
            busyDomains.delete(domain);
            settled.delete(domain);
            wake();
          });
        tasks.add(task);
      }
      return started;
    },

    async verify(local, asciiDomain) {
      await ready;
      const learn = (domain: string, probe: DomainProbe, egress: string) =>
        learnFromProbe(db, settings, domain, probe, config.now(), busyDomains, egress);
      return verifyOne({ db, settings, now: config.now, routeOf, converse, learn }, local, asciiDomain);
    },

    onWorkFreed: (callback) => void (wake = callback),

    estimate(rowKey) {
      const now = config.now();
      const asked = (domain: string) => settled.get(domain) ?? 0;
      return estimates(rowKey, now, () =>
        estimatePace(db, rowKey, settings, egressLabels(proxies, now), now, asked, (key) => paces.stage(key, now)),
      );
    },

    async reconfigure(next) {
      await ready.catch(() => undefined);
      settings = next;
      lookup = createMailRouteLookup({ ...next });
      proxies = createProxyPool(next.proxies, next.connectRetryMs);
      ready = capHostRates(db, next);
      ready.catch(() => undefined);
      await ready;
    },

    async stop() {
      stopping = true;
      clearInterval(renewal);
      // The reset at start is done before the caller closes the store.
      await ready.catch(() => undefined);
      if (tasks.size === 0) return;
      // Conversations end within their timeout; a stop waits for them only briefly, and the timer must
      // not keep the process alive after they have ended.
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([
        Promise.allSettled([...tasks]),
        new Promise((resolve) => (timer = setTimeout(resolve, 2000))),
      ]);
      clearTimeout(timer);
    },
  };
}
