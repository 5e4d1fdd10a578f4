// The summary of a job's list: the spec's batch-summary counters over the whole list, plus the rows
// settled locally. Counted over the job's distinct addresses, once, when asked (never per page).
import type { ListSummary } from '../../common/contract.ts';
import { namedResults, type NamedResult } from '../wire/spec.ts';
import type { JobRecord, JobStore } from './job-store.ts';

const isNamedResult = (result: string): result is NamedResult => (namedResults as readonly string[]).includes(result);

export function summariseJob(store: JobStore, job: JobRecord): ListSummary {
  const noAddress = job.precheck?.noAddress ?? 0;
  const submitted = job.rowsTotal - noAddress;
  const summary: ListSummary = {
    submitted,
    unique: 0,
    valid: 0,
    invalid: 0,
    catch_all: 0,
    unknown: 0,
    duplicates: 0,
    role: 0,
    disposable: 0,
    billed: 0,
    no_address: noAddress,
    other_results: {},
    unverified: 0,
  };
  for (const group of store.list(job.id).verdictCounts()) {
    summary.unique += group.count;
    summary.role += group.role;
    summary.disposable += group.disposable;
    summary.billed += group.billed;
    if (group.result === null) summary.unverified += group.count;
    else if (isNamedResult(group.result)) summary[group.result] += group.count;
    else summary.other_results[group.result] = (summary.other_results[group.result] ?? 0) + group.count;
  }
  summary.duplicates = submitted - summary.unique;
  return summary;
}
