// What checking a job's remaining addresses will cost, told before anything is sent.
import type { ServiceClient } from '../../client/service-client.ts';
import type { JobRecord, JobStore, ListStore } from '../store/index.ts';

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

/** The addresses still to be sent and paid for: none once any part is planned (those were paid as sent). */
function checksToPay(list: ListStore, job: JobRecord): number {
  if (list.parts().length > 0) return 0;
  return Math.max(0, (job.precheck?.toCheck ?? 0) - (list.counters().get('cached') ?? 0));
}

/**
 * Whether the job needs a service at all: a list whose every address the pre-check, the do-not-mail list
 * or the verdict cache settled, and which has no batch to read, is finished without one.
 */
export function needsService(store: JobStore, job: JobRecord): boolean {
  const list = store.list(job.id);
  return list.parts().length > 0 || checksToPay(list, job) > 0;
}

/** A service to ask the cost of; none (only its kind of key) when `needsService` said none is needed. */
type CostClient = Pick<ServiceClient, 'mode'> & Partial<Pick<ServiceClient, 'getAccount'>>;

/** What the job's addresses still to send will cost (none once its parts are planned and paid as sent). */
export function estimateCost(store: JobStore, job: JobRecord, client: CostClient, signal?: AbortSignal): Promise<Cost> {
  const list = store.list(job.id);
  return costOfChecks(client, checksToPay(list, job), list.counters().get('cached') ?? 0, signal);
}

/**
 * Whether the account can pay for `checks` checks, as far as it says: asked of the service with a live
 * key. A service that does not say its balance (the spec shows no field of /account) is not taken to have
 * none.
 */
export async function costOfChecks(
  client: CostClient,
  checks: number,
  cached: number,
  signal?: AbortSignal,
): Promise<Cost> {
  if (client.mode === 'sandbox') return { checks, cached, mode: 'sandbox', covered: true };
  if (!client.getAccount) {
    if (checks > 0) throw new Error('The cost of checks was asked with no service to ask.');
    return { checks, cached, mode: client.mode, covered: true };
  }
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
