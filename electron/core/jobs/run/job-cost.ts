// What checking a job's remaining addresses will cost, told before anything is sent.
import type { ServiceClient } from '../../client/service-client.ts';
import type { JobRecord, JobStore } from '../store/index.ts';

export type Cost = {
  checks: number;
  /** Addresses whose verdict an earlier list gave (the verdict cache): not sent, not paid for. */
  cached: number;
  mode: 'live' | 'sandbox';
  freeRemaining?: number;
  balance?: number;
  /** False only when the account says it cannot pay for these checks. */
  covered: boolean;
};

/** The account cannot pay for the checks; nothing was sent. */
export class CostNotCovered extends Error {
  readonly cost: Cost;
  constructor(cost: Cost) {
    super(
      `Not enough credits: ${cost.checks} checks needed, ${(cost.freeRemaining ?? 0) + (cost.balance ?? 0)} available. Nothing was sent.`,
    );
    this.name = 'CostNotCovered';
    this.cost = cost;
  }
}

export async function estimateCost(
  store: JobStore,
  job: JobRecord,
  client: Pick<ServiceClient, 'getAccount' | 'mode'>,
  signal?: AbortSignal,
): Promise<Cost> {
  // Once any part is planned, what remains was paid for when it was sent.
  const list = store.list(job.id);
  const unsent = list.parts().length === 0;
  const cached = list.counters().get('cached') ?? 0;
  const checks = unsent ? Math.max(0, (job.precheck?.toCheck ?? 0) - cached) : 0;
  if (client.mode === 'sandbox') return { checks, cached, mode: 'sandbox', covered: true };
  const account = await client.getAccount({ signal });
  const available = (account.free_remaining ?? 0) + (account.balance ?? 0);
  const known = account.free_remaining !== undefined || account.balance !== undefined;
  return {
    checks,
    cached,
    mode: 'live',
    freeRemaining: account.free_remaining,
    balance: account.balance,
    covered: !known || available >= checks,
  };
}
