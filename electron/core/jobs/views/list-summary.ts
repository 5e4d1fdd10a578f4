// The summary of a job's list on the one funnel (common/list-funnel.ts): the pre-check's counts of the
// rows, and the verdicts as running totals the list keeps as they come in, so it costs the same for ten
// rows as for ten million.
import type { ListSummary } from '../../../common/contract.ts';
import type { VerdictChanges } from '../../../common/list-schemas.ts';
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
    ruled: precheck?.ruled ?? 0,
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
  const changed = changesOf(counters);
  if (changed) summary.changed = changed;
  for (const [name, count] of counters) {
    if (!name.startsWith('result:')) continue;
    const result = name.slice('result:'.length);
    if (isNamedResult(result)) summary[result] += count;
    else summary.other_results[result] = count;
  }
  return summary;
}

/** What changed since the last check, from the list's `changed:<field>` totals; undefined when none was counted. */
function changesOf(counters: Map<string, number>): VerdictChanges | undefined {
  const compared = counters.get('changed:compared');
  if (compared === undefined) return undefined;
  const field = (name: string) => counters.get(`changed:${name}`) ?? 0;
  return {
    compared,
    earlier_checked_at: new Date(field('earlier_checked_at')).toISOString(),
    days: field('days'),
    was_valid: field('was_valid'),
    valid_to_invalid: field('valid_to_invalid'),
    invalid_to_valid: field('invalid_to_valid'),
    became_catch_all: field('became_catch_all'),
    became_unknown: field('became_unknown'),
    unchanged: field('unchanged'),
  };
}
