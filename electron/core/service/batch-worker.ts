// Works running batches in the background: claims chunks of pending addresses, paces probes per mail
// host, and writes each round's verdicts in one transaction. All state is in the database, so after a
// restart it simply carries on, and several workers on one database share the work and the hosts'
// budgets: a verdict is written once, and billed once, or not at all. An engine that opens no connection
// (the sandbox's scripted verdicts) with no pacing asked for is worked in large rounds at once.
import type { KeyMode } from '../wire/spec.ts';
import type { SqlConnection } from '../storage/sql-connection.ts';
import type { VerificationEngine, Verdict } from './engines/engine.ts';
import type { ServiceConfig } from './service-config.ts';
import { recordOutcomes, type ProbeOutcome } from './store/batch-lifecycle-store.ts';
import { pendingRows, runningBatches, type PendingRow } from './store/batches-store.ts';
import { takeHostTokens } from './store/host-tokens-store.ts';
import {
  chunkRows,
  claimChunks,
  dropChunks,
  makeChunks,
  releaseChunk,
  renewChunks,
} from './store/work-chunks-store.ts';
import { tellTakeover, whileRenewing } from './work-leases.ts';

export type BatchWorker = { runOnce(): Promise<number>; start(): void; stop(): Promise<void> };

/** How many rows (whole chunks) the paced worker looks through for hosts that still have budget. */
const lookAhead = 2000;
/** Rows per round for an engine that answers at once: large enough to be quick, small enough to keep answering HTTP. */
const immediateRoundRows = 25_000;

const localPartOf = (email: string) => email.slice(0, email.lastIndexOf('@'));
const failure = (error: unknown) => (error instanceof Error ? error.message : String(error));

export function createBatchWorker(
  db: SqlConnection,
  config: ServiceConfig,
  engines: Record<KeyMode, VerificationEngine>,
  /** This process's id: the owner of the chunks it claims. */
  owner: string,
): BatchWorker {
  /** Batches whose chunks this process has made sure of; dropped here when they stop running. */
  const chunked = new Set<string>();
  let timer: NodeJS.Timeout | undefined;
  let round: Promise<number> | undefined;
  let stopped = true;

  const rateFor = (mode: KeyMode) =>
    mode === 'sandbox' ? config.sandboxProbesPerSecondPerHost : config.probesPerSecondPerHost;

  /** Claims chunks of the batch, works their pending rows, and hands them back whatever happened. */
  async function withChunks(
    batch: { id: string; submitted: number },
    count: number,
    work: (rows: PendingRow[]) => Promise<number>,
  ): Promise<number> {
    if (!chunked.has(batch.id)) {
      await makeChunks(db, batch.id, batch.submitted);
      chunked.add(batch.id);
    }
    const now = config.now();
    const claimed = await claimChunks(db, batch.id, owner, now, now + config.workLeaseMs, count);
    for (const from of new Set(claimed.flatMap((range) => range.takenFrom ?? []))) {
      const chunks = claimed.filter((range) => range.takenFrom === from).length;
      tellTakeover(`${chunks} chunk${chunks === 1 ? '' : 's'} of ${batch.id}`, from);
    }
    const renew = () => renewChunks(db, batch.id, owner, claimed, config.now() + config.workLeaseMs);
    try {
      return await whileRenewing(config.workLeaseMs, renew, async () => {
        const rows: PendingRow[] = [];
        for (const range of claimed) rows.push(...(await pendingRows(db, batch.id, range.firstSeq, range.lastSeq)));
        return rows.length === 0 ? 0 : await work(rows);
      });
    } finally {
      for (const range of claimed) await releaseChunk(db, batch.id, owner, range);
    }
  }

  async function immediateRound(
    batch: { id: string; submitted: number },
    verifyNow: (local: string, host: string) => Verdict,
  ): Promise<number> {
    return withChunks(batch, immediateRoundRows / chunkRows, async (rows) => {
      const outcomes: ProbeOutcome[] = rows.map((row) => {
        try {
          return { seq: row.seq, verdict: verifyNow(localPartOf(row.email), row.host) };
        } catch (error) {
          return { seq: row.seq, error: failure(error) };
        }
      });
      await recordOutcomes(db, config, config.now(), batch.id, outcomes);
      return rows.length;
    });
  }

  async function pacedRound(batch: { id: string; mode: KeyMode; submitted: number }, budget: number) {
    return withChunks(batch, lookAhead / chunkRows, async (rows) => {
      const bucketOf = (row: PendingRow) => `${batch.mode}:${row.host}`;
      // A bucket never holds more than a second's tokens: asking for more would only be refused. A token
      // given and not used is lost to every worker, so the round asks for no more than its budget.
      const wanted = new Map<string, number>();
      let asked = 0;
      for (const row of rows) {
        const bucket = bucketOf(row);
        const want = wanted.get(bucket) ?? 0;
        if (asked >= budget) break;
        if (want >= Math.ceil(rateFor(batch.mode))) continue;
        wanted.set(bucket, want + 1);
        asked += 1;
      }
      const given = await takeHostTokens(db, wanted, rateFor(batch.mode), config.now());
      const picked: PendingRow[] = [];
      for (const row of rows) {
        if (picked.length >= budget) break;
        const left = given.get(bucketOf(row)) ?? 0;
        if (left <= 0) continue;
        given.set(bucketOf(row), left - 1);
        picked.push(row);
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
    });
  }

  async function runRound(): Promise<number> {
    let budget = config.probesPerRound;
    let probed = 0;
    // An engine with its own queue (the local SMTP engine) picks its work by mail host, across batches.
    for (const engine of new Set(Object.values(engines))) if (engine.runQueue) probed += await engine.runQueue();
    const running = await runningBatches(db);
    for (const batchId of chunked) {
      if (running.some((batch) => batch.id === batchId)) continue;
      await dropChunks(db, batchId);
      chunked.delete(batchId);
    }
    for (const batch of running) {
      const engine = engines[batch.mode];
      if (engine.runQueue) continue;
      if (engine.verifyNow && rateFor(batch.mode) === Number.POSITIVE_INFINITY) {
        probed += await immediateRound(batch, engine.verifyNow);
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
