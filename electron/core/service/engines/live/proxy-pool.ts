// Which way out a conversation takes: directly when no proxy is set, else one of the proxies. A domain
// keeps its proxy while the pool's health is unchanged (its servers see one sending address); a proxy
// that fails rests a while and its domains go to the others, or wait when it was the only one. Health
// is this process's own: each worker finds out for itself, by trying.
import type { ProxyEndpoint } from './socks-proxy.ts';

type Egress = { via?: ProxyEndpoint; label: string };

export type ProxyPool = {
  /** The way out for a conversation about `domain`, or when to ask again (every proxy is resting). */
  pick(domain: string, now: number): Egress | { retryAt: number };
  /** The proxy failed: it rests until `now + restMs`. Answers whether this is news (it was working). */
  failed(proxy: ProxyEndpoint, now: number): boolean;
};

const directEgress = 'direct';

/** Stable and cheap: the same domain lands on the same proxy while the healthy set is the same. */
function spread(domain: string, count: number): number {
  let hash = 2166136261;
  for (let i = 0; i < domain.length; i += 1) hash = Math.imul(hash ^ domain.charCodeAt(i), 16777619);
  return (hash >>> 0) % count;
}

export function createProxyPool(proxies: readonly ProxyEndpoint[], restMs: number): ProxyPool {
  const restingUntil = new Map<string, number>();
  return {
    pick(domain, now) {
      if (proxies.length === 0) return { label: directEgress };
      const working = proxies.filter((proxy) => (restingUntil.get(proxy.label) ?? 0) <= now);
      if (working.length === 0) return { retryAt: Math.min(...restingUntil.values()) };
      const via = working[spread(domain, working.length)]!;
      return { via, label: via.label };
    },
    failed(proxy, now) {
      const wasWorking = (restingUntil.get(proxy.label) ?? 0) <= now;
      restingUntil.set(proxy.label, now + restMs);
      return wasWorking;
    },
  };
}

/** Which way out a domain's conversations take now, by name (a proxy's label, or `direct`): its budgets' key part. */
export const egressLabels =
  (pool: ProxyPool, now: number) =>
  (domain: string): string => {
    const egress = pool.pick(domain, now);
    return 'label' in egress ? egress.label : directEgress;
  };
