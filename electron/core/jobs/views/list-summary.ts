// The summary of a job's list on the one funnel (common/list-funnel.ts): the pre-check's counts of the
// rows, and the verdicts as running totals the list keeps as they come in, so it costs the same for ten
// rows as for ten million.
import type { ListSummary } from '../../../common/contract.ts';
import { namedResults, type NamedResult } from '../../wire/spec.ts';
import type { JobRecord, JobStore } from '../store/index.ts';

const isNamedResult = (result: string): result is NamedResult => (namedResults as readonly string[]).includes(result);

export function summariseJob(store: JobStore, job: JobRecord): ListSummary {
  const counters = store.list(job.id).counters();
  const precheck = job.precheck;
  const toCheck = precheck?.toCheck ?? 0;
  const cached = counters.get('cached') ?? 0;
  const summary: ListSummary = {
    rows: job.rowsTotal,
    no_address: precheck?.noAddress ?? 0,
    bad_syntax: precheck?.badSyntax ?? 0,
    duplicates: precheck?.duplicates ?? 0,
    suppressed: precheck?.suppressed ?? 0,
    to_check: toCheck,
    valid: 0,
    invalid: 0,
    catch_all: 0,
    unknown: 0,
    other_results: {},
    unverified: toCheck - cached - (counters.get('checked') ?? 0),
    role: precheck?.role ?? 0,
    disposable: precheck?.disposable ?? 0,
    typos: precheck?.suggestions ?? 0,
    billed: counters.get('billed') ?? 0,
    cached,
  };
  for (const [name, count] of counters) {
    if (!name.startsWith('result:')) continue;
    const result = name.slice('result:'.length);
    if (isNamedResult(result)) summary[result] += count;
    else summary.other_results[result] = count;
  }
  return summary;
}
