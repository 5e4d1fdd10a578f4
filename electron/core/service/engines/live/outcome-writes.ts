// What a conversation's decisions change in the store, each in one transaction: verdicts recorded (batches
// always locked in one order), the queue moved on, the domain rescheduled; and a conversation that failed
// in Sift itself counted against its addresses' tries, so a batch that keeps failing is given up.
import type { SqlConnection } from '../../../storage/sql-connection.ts';
import type { Verdict } from '../engine.ts';
import type { ServiceConfig } from '../../service-config.ts';
import { recordOutcomes } from '../../store/batch-lifecycle-store.ts';
import { dequeue, requeue, rescheduleDomain, type QueuedAddress } from '../../store/probe-queue-store.ts';
import type { Decisions } from './probe-outcomes.ts';

export function outcomeWrites(db: SqlConnection, config: ServiceConfig, connectRetryMs: () => number) {
  async function write(domain: string, decisions: Decisions, notBefore?: number): Promise<void> {
    await db.transaction(async (tx) => {
      const byBatch = new Map<string, { seq: number; verdict: Verdict }[]>();
      for (const { batchId, seq, verdict } of decisions.verdicts) {
        byBatch.set(batchId, [...(byBatch.get(batchId) ?? []), { seq, verdict }]);
      }
      // Batches in one order everywhere: two processes locking the same two batches cannot deadlock.
      for (const batchId of [...byBatch.keys()].sort()) {
        await recordOutcomes(tx, config, config.now(), batchId, byBatch.get(batchId)!);
      }
      await dequeue(tx, decisions.verdicts);
      await requeue(tx, decisions.retries);
      await rescheduleDomain(tx, domain, notBefore);
    });
  }

  /**
   * A conversation that failed in Sift itself (not at the mail server): each address counts a failed
   * attempt, as in the sandbox, so a batch that keeps failing is given up and refunded rather than
   * retried for ever; the rest wait a little and go back in the queue instead of sitting out the lease.
   */
  async function checkFailed(domain: string, items: readonly QueuedAddress[], error: unknown): Promise<void> {
    const now = config.now();
    const message = `Checking ${domain} failed: ${error instanceof Error ? error.message : String(error)}`;
    try {
      await db.transaction(async (tx) => {
        for (const batchId of [...new Set(items.map((item) => item.batchId))].sort()) {
          const outcomes = items.filter((item) => item.batchId === batchId).map(({ seq }) => ({ seq, error: message }));
          await recordOutcomes(tx, config, now, batchId, outcomes);
        }
        await requeue(
          tx,
          items.map(({ batchId, seq }) => ({ batchId, seq, notBefore: now + connectRetryMs() })),
        );
        await rescheduleDomain(tx, domain);
      });
    } catch (storeError) {
      // The store itself is failing: the lease runs out and the work is picked up again then.
      console.error(`sift service: could not record that ${domain} failed:`, storeError);
    }
  }

  return { write, checkFailed };
}
