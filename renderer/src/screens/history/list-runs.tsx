import type { JobListItem } from '../../../../electron/common/contract.ts';
import { describeChanges } from '../../../../electron/common/changes-words.ts';
import { formatCount } from '../../format.ts';

/** A list cleaned more than once (by its file name), with its finished runs oldest first. */
type CleanedAgain = { fileName: string; runs: JobListItem[] };

export function listsCleanedAgain(jobs: readonly JobListItem[]): CleanedAgain[] {
  const byName = new Map<string, JobListItem[]>();
  for (const job of jobs) {
    if (job.phase !== 'done' || !job.summary) continue;
    byName.set(job.fileName, [...(byName.get(job.fileName) ?? []), job]);
  }
  return [...byName]
    .filter(([, runs]) => runs.length > 1)
    .map(([fileName, runs]) => ({ fileName, runs: runs.sort((a, b) => a.createdAt.localeCompare(b.createdAt)) }));
}

const share = (count: number, of: number) => (of === 0 ? '–' : `${((count / of) * 100).toFixed(1)}%`);

/** The runs of one list side by side: how its verdicts moved from one clean to the next. */
export function ListRuns({ list }: { list: CleanedAgain }) {
  const runs = list.runs.slice(-4);
  const rows: [string, (job: JobListItem) => string][] = [
    ['Rows', (job) => formatCount(job.rows)],
    ['Addresses checked', (job) => formatCount(job.summary!.to_check)],
    ['Valid', (job) => share(job.summary!.valid, job.summary!.to_check)],
    ['Invalid', (job) => share(job.summary!.invalid, job.summary!.to_check)],
    ['Catch-all', (job) => share(job.summary!.catch_all, job.summary!.to_check)],
    ['Unknown', (job) => share(job.summary!.unknown, job.summary!.to_check)],
    ['Verdicts', (job) => (job.demo ? 'Demo' : job.service)],
  ];
  const changes = runs.filter((job) => job.summary!.changed);
  return (
    <section className="history__runs" aria-label={`Runs of ${list.fileName}`} data-testid="list-runs">
      <table className="data-table">
        <caption>
          {list.fileName}: cleaned {list.runs.length} times
          {list.runs.length > runs.length ? ` (the last ${runs.length} shown)` : ''}
        </caption>
        <thead>
          <tr>
            <th scope="col">
              <span className="visually-hidden">Measure</span>
            </th>
            {runs.map((job) => (
              <th scope="col" key={job.jobId}>
                {new Date(job.createdAt).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' })}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map(([label, cell]) => (
            <tr key={label}>
              <th scope="row">{label}</th>
              {runs.map((job) => (
                <td key={job.jobId}>{cell(job)}</td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
      {changes.map((job) => (
        <p className="note" key={job.jobId}>
          {new Date(job.createdAt).toLocaleDateString(undefined, { dateStyle: 'medium' })}:{' '}
          {describeChanges(job.summary!.changed!)}
        </p>
      ))}
    </section>
  );
}
