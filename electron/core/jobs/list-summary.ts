// The summary of a job's list: the spec's batch-summary counters over the whole list, plus the rows
// settled locally. Made from running totals the list keeps as it is imported and as verdicts come in,
// so it costs the same for ten rows as for ten million.
import type { ListSummary } from '../../common/contract.ts';
import { namedResults, type NamedResult } from '../wire/spec.ts';
import type { JobRecord, JobStore } from './job-store.ts';

const isNamedResult = (result: string): result is NamedResult => (namedResults as readonly string[]).includes(result);

export function summariseJob(store: JobStore, job: JobRecord): ListSummary {
  const counters = store.list(job.id).counters();
  const counter = (name: string) => counters.get(name) ?? 0;
  const precheck = job.precheck;
  const submitted = job.rowsTotal - (precheck?.noAddress ?? 0);
  const unique = counter('unique');
  const summary: ListSummary = {
    submitted,
    unique,
    valid: 0,
    // Bad syntax is settled here as invalid, never sent.
    invalid: counter('unique_bad_syntax'),
    catch_all: 0,
    unknown: 0,
    duplicates: submitted - unique,
    role: precheck?.role ?? 0,
    disposable: precheck?.disposable ?? 0,
    billed: counter('billed'),
    no_address: precheck?.noAddress ?? 0,
    other_results: {},
    unverified: (precheck?.toCheck ?? 0) - counter('checked'),
  };
  for (const [name, count] of counters) {
    if (!name.startsWith('result:')) continue;
    const result = name.slice('result:'.length);
    if (isNamedResult(result)) summary[result] += count;
    else summary.other_results[result] = count;
  }
  return summary;
}
