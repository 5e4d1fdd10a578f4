// What checking a job's remaining addresses will cost, told before anything is sent.
import type { ServiceClient } from '../../client/service-client.ts';
import type { JobRecord, JobStore } from '../store/index.ts';

export type Cost = {
  checks: number;
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
  const unsent = store.list(job.id).parts().length === 0;
  const checks = unsent ? (job.precheck?.toCheck ?? 0) : 0;
  if (client.mode === 'sandbox') return { checks, mode: 'sandbox', covered: true };
  const account = await client.getAccount({ signal });
  const available = (account.free_remaining ?? 0) + (account.balance ?? 0);
  const known = account.free_remaining !== undefined || account.balance !== undefined;
  return {
    checks,
    mode: 'live',
    freeRemaining: account.free_remaining,
    balance: account.balance,
    covered: !known || available >= checks,
  };
}
