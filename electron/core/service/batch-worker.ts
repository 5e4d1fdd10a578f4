// Works running batches in the background: picks pending addresses, paces probes per mail host, and
// writes each round's verdicts in one transaction. All state is in the database, so after a restart it
// simply carries on: a verdict is written once, and billed once, or not at all. An engine that opens no
// connection (the sandbox's scripted verdicts) with no pacing asked for is worked in large rounds at once.
import type { KeyMode } from '../wire/spec.ts';
import type { SqlConnection } from '../storage/sql-connection.ts';
import type { VerificationEngine, Verdict } from './sandbox-verdicts.ts';
import type { ServiceConfig } from './service-config.ts';
import { recordOutcomes, type ProbeOutcome } from './store/batch-lifecycle-store.ts';
import { pendingRows, runningBatches, type PendingRow } from './store/batches-store.ts';

export type BatchWorker = { runOnce(): Promise<number>; start(): void; stop(): Promise<void> };

/** How far past the first pending address the paced worker looks for hosts that still have budget. */
const lookAhead = 2000;
/** Rows per round for an engine that answers at once: large enough to be quick, small enough to keep answering HTTP. */
const immediateRoundRows = 25_000;

const localPartOf = (email: string) => email.slice(0, email.lastIndexOf('@'));
const failure = (error: unknown) => (error instanceof Error ? error.message : String(error));

export function createBatchWorker(
  db: SqlConnection,
  config: ServiceConfig,
  engines: Record<KeyMode, VerificationEngine>,
): BatchWorker {
  const buckets = new Map<string, { tokens: number; at: number }>();
  /** Per batch, where the next look for pending rows starts: a hint only (a restart starts from the top again). */
  const reached = new Map<string, number>();
  let timer: NodeJS.Timeout | undefined;
  let round: Promise<number> | undefined;
  let stopped = true;

  const rateFor = (mode: KeyMode) =>
    mode === 'sandbox' ? config.sandboxProbesPerSecondPerHost : config.probesPerSecondPerHost;

  /** Token bucket per mail host: the mode's probes per second, with at most one second's burst. */
  function takeToken(mode: KeyMode, host: string, now: number): boolean {
    const rate = rateFor(mode);
    const id = `${mode}:${host}`;
    const bucket = buckets.get(id) ?? { tokens: rate, at: now };
    bucket.tokens = Math.min(rate, bucket.tokens + ((now - bucket.at) / 1000) * rate);
    bucket.at = now;
    buckets.set(id, bucket);
    if (bucket.tokens < 1) return false;
    bucket.tokens -= 1;
    return true;
  }

  async function immediateRound(batchId: string, verifyNow: (local: string, host: string) => Verdict): Promise<number> {
    const after = reached.get(batchId) ?? 0;
    const rows = await pendingRows(db, batchId, after, immediateRoundRows);
    // Past the end: start from the top again, where rows whose probe failed are still pending.
    reached.set(batchId, rows.length < immediateRoundRows ? 0 : rows.at(-1)!.seq);
    if (rows.length === 0) return 0;
    const outcomes: ProbeOutcome[] = rows.map((row) => {
      try {
        return { seq: row.seq, verdict: verifyNow(localPartOf(row.email), row.host) };
      } catch (error) {
        return { seq: row.seq, error: failure(error) };
      }
    });
    await recordOutcomes(db, config, config.now(), batchId, outcomes);
    return rows.length;
  }

  async function pacedRound(batch: { id: string; mode: KeyMode }, budget: number): Promise<number> {
    const now = config.now();
    const picked: PendingRow[] = [];
    // From the first row still pending when last looked, not from the top: done rows are not read again.
    const rows = await pendingRows(db, batch.id, reached.get(batch.id) ?? 0, lookAhead);
    reached.set(batch.id, rows.length === 0 ? 0 : rows[0]!.seq - 1);
    for (const row of rows) {
      if (picked.length >= budget) break;
      if (takeToken(batch.mode, row.host, now)) picked.push(row);
    }
    if (picked.length === 0) return 0;
    const outcomes: ProbeOutcome[] = [];
    for (let i = 0; i < picked.length; i += config.probeConcurrency) {
      const slice = picked.slice(i, i + config.probeConcurrency);
      const settled = await Promise.allSettled(
        slice.map((row) => engines[batch.mode].verify(localPartOf(row.email), row.host)),
      );
      settled.forEach((outcome, index) => {
        const seq = slice[index]!.seq;
        outcomes.push(
          outcome.status === 'fulfilled' ? { seq, verdict: outcome.value } : { seq, error: failure(outcome.reason) },
        );
      });
    }
    await recordOutcomes(db, config, config.now(), batch.id, outcomes);
    return picked.length;
  }

  async function runRound(): Promise<number> {
    let budget = config.probesPerRound;
    let probed = 0;
    // An engine with its own queue (the local SMTP engine) picks its work by mail host, across batches.
    for (const engine of new Set(Object.values(engines))) if (engine.runQueue) probed += await engine.runQueue();
    for (const batch of await runningBatches(db)) {
      const engine = engines[batch.mode];
      if (engine.runQueue) continue;
      if (engine.verifyNow && rateFor(batch.mode) === Number.POSITIVE_INFINITY) {
        probed += await immediateRound(batch.id, engine.verifyNow);
        continue;
      }
      if (budget <= 0) continue;
      const done = await pacedRound(batch, budget);
      budget -= done;
      probed += done;
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

  /** A round now rather than at the next tick (an engine freed a connection); never two rounds at once. */
  function wake() {
    if (stopped || round) return;
    clearTimeout(timer);
    schedule(0);
  }
  for (const engine of new Set(Object.values(engines))) engine.onWorkFreed?.(wake);

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
