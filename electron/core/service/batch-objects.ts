// A batch as the spec shows it: the batch object and its summary counters, from a stored batch.
import { batchStatuses, type BatchEstimate, type BatchObject, type LocalEngineRowExtra } from '../wire/assumptions.ts';
import type { PaceEstimate } from './engines/live/pace-estimate.ts';
import type { BatchSummary } from '../wire/spec.ts';
import type { BatchRecord } from './store/batches-store.ts';
import type { Verdict } from './engines/engine.ts';

/** The local engine's extras as the wire carries them (see localEngineRowExtras), only those it has. */
export function verdictExtras(
  verdict: Pick<Verdict, 'provider' | 'free' | 'smtpReply' | 'smtpTls'>,
): Partial<Record<LocalEngineRowExtra, string | boolean>> {
  return {
    ...(verdict.provider ? { provider: verdict.provider } : {}),
    ...(verdict.free === undefined ? {} : { free: verdict.free }),
    ...(verdict.smtpReply ? { smtp_reply: verdict.smtpReply } : {}),
    ...(verdict.smtpTls ? { smtp_tls: verdict.smtpTls } : {}),
  };
}

export function summaryOf(batch: BatchRecord): BatchSummary {
  return {
    valid: batch.c_valid,
    invalid: batch.c_invalid,
    catch_all: batch.c_catch_all,
    unknown: batch.c_unknown,
    duplicates: batch.submitted - batch.unique_count,
    role: batch.c_role,
    disposable: batch.c_disposable,
    billed: batch.c_billed,
  };
}

/** The estimate as the wire carries it (Sift's own field, see batchEstimateSchema). */
export function wireEstimate(estimate: PaceEstimate): BatchEstimate {
  return {
    seconds_left: estimate.secondsLeft,
    pace: estimate.learning === 'window' ? 'learning' : estimate.learning === 'confirming' ? 'confirming' : 'polite',
    ...(estimate.largest ? { largest: estimate.largest } : {}),
  };
}

function estimateField(estimate: PaceEstimate | undefined): { estimate?: BatchEstimate } {
  return estimate ? { estimate: wireEstimate(estimate) } : {};
}

export function batchObject(batch: BatchRecord, estimate?: PaceEstimate): BatchObject {
  return {
    id: batch.id,
    name: batch.name,
    status: batch.status,
    submitted: batch.submitted,
    unique: batch.unique_count,
    created_at: new Date(batch.created_at).toISOString(),
    completed_at:
      batch.status === batchStatuses.complete && batch.ended_at ? new Date(batch.ended_at).toISOString() : null,
    summary: summaryOf(batch),
    ...estimateField(estimate),
  };
}
