// Connection limits servers show us: a server that turns a connection away at its greeting (421) while
// another of ours is open there allows fewer at once than the budget's setting (Exim's
// smtp_accept_max_per_host, Postfix's smtpd_client_connection_count_limit). This process then opens no
// more than that many to it for a while, instead of knocking and being turned away again.
export type ConnectionLimits = {
  /** The most connections to open to this budget now: the learned limit, or the configured one. */
  allowed(key: string, configured: number, now: number): number;
  /** Turned away at the greeting with `othersOpen` of ours already there. */
  crowded(key: string, othersOpen: number, now: number): void;
};

/** How long a learned limit holds before the configured one is tried again. */
const keptMs = 60 * 60_000;

export function createConnectionLimits(): ConnectionLimits {
  const learned = new Map<string, { max: number; until: number }>();
  return {
    allowed(key, configured, now) {
      const limit = learned.get(key);
      if (!limit || limit.until <= now) {
        learned.delete(key);
        return configured;
      }
      return Math.min(configured, limit.max);
    },
    crowded(key, othersOpen, now) {
      learned.set(key, { max: Math.max(1, othersOpen), until: now + keptMs });
      if (learned.size > 10_000) learned.delete(learned.keys().next().value!);
    },
  };
}
