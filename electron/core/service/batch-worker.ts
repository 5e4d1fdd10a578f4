// Works running batches in the background: picks pending addresses, paces probes per mail host,
// and writes each round's verdicts in one transaction. All state is in the database, so after a
// restart it simply carries on: a verdict is written once, and billed once, or not at all.
import type { KeyMode } from '../wire/spec.ts';
import { sql, type Database } from '../storage/sqlite.ts';
import { recordOutcomes, type ProbeOutcome } from './batches.ts';
import type { VerificationEngine } from './sandbox-verdicts.ts';
import type { ServiceConfig } from './service-config.ts';

export type BatchWorker = { runOnce(): Promise<number>; start(): void; stop(): Promise<void> };

/** How far past the first pending address the worker looks for hosts that still have budget. */
const lookAhead = 2000;

export function createBatchWorker(
  db: Database,
  config: ServiceConfig,
  engines: Record<KeyMode, VerificationEngine>,
): BatchWorker {
  const buckets = new Map<string, { tokens: number; at: number }>();
  let timer: NodeJS.Timeout | undefined;
  let round: Promise<number> | undefined;
  let stopped = true;

  /** Token bucket per mail host: `probesPerSecondPerHost`, with at most one second's burst. */
  function takeToken(mode: KeyMode, host: string, now: number): boolean {
    const rate = mode === 'sandbox' ? config.sandboxProbesPerSecondPerHost : config.probesPerSecondPerHost;
    const id = `${mode}:${host}`;
    const bucket = buckets.get(id) ?? { tokens: rate, at: now };
    bucket.tokens = Math.min(rate, bucket.tokens + ((now - bucket.at) / 1000) * rate);
    bucket.at = now;
    buckets.set(id, bucket);
    if (bucket.tokens < 1) return false;
    bucket.tokens -= 1;
    return true;
  }

  async function runRound(): Promise<number> {
    const running = sql(db, "SELECT id, mode FROM batches WHERE status = 'running' ORDER BY created_at").all() as {
      id: string;
      mode: KeyMode;
    }[];
    let budget = config.probesPerRound;
    let probed = 0;
    for (const batch of running) {
      if (budget <= 0) break;
      const pending = db
        .prepare('SELECT seq, email, host FROM batch_rows WHERE batch_id = ? AND result IS NULL ORDER BY seq LIMIT ?')
        .all(batch.id, lookAhead) as { seq: number; email: string; host: string }[];
      const picked = [];
      const now = config.now();
      for (const row of pending) {
        if (picked.length >= budget) break;
        if (takeToken(batch.mode, row.host, now)) picked.push(row);
      }
      if (picked.length === 0) continue;
      budget -= picked.length;
      const outcomes: ProbeOutcome[] = [];
      for (let i = 0; i < picked.length; i += config.probeConcurrency) {
        const slice = picked.slice(i, i + config.probeConcurrency);
        const settled = await Promise.allSettled(
          slice.map((row) => engines[batch.mode].verify(row.email.slice(0, row.email.lastIndexOf('@')), row.host)),
        );
        settled.forEach((outcome, index) => {
          const seq = slice[index]!.seq;
          if (outcome.status === 'fulfilled') outcomes.push({ seq, verdict: outcome.value });
          else
            outcomes.push({
              seq,
              error: outcome.reason instanceof Error ? outcome.reason.message : String(outcome.reason),
            });
        });
      }
      recordOutcomes(db, config, config.now(), batch.id, outcomes);
      probed += picked.length;
    }
    return probed;
  }

  function schedule(delay: number) {
    if (stopped) return;
    timer = setTimeout(async () => {
      round = runRound();
      const probed = await round.catch((error: unknown) => {
        console.error('sift service: batch worker round failed:', error);
        return 0;
      });
      round = undefined;
      schedule(probed > 0 ? 0 : config.workerTickMs);
    }, delay);
  }

  return {
    runOnce: () => runRound(),
    start() {
      stopped = false;
      schedule(0);
    },
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await round?.catch(() => 0);
    },
  };
}
