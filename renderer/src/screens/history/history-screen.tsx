import { lazy, Suspense, useEffect } from 'react';
import { ConfirmButton } from '../../ui/confirm-button.tsx';
import type { JobListItem } from '../../../../electron/common/contract.ts';
import { formatBytes, formatCount } from '../../format.ts';
import { describePhase } from '../../phase-words.ts';
import { cleanActions } from '../../stores/clean-store.ts';
import { historyActions, useHistoryStore } from '../../stores/history-store.ts';
import { go } from '../../stores/nav-store.ts';
import { useFocusHeading } from '../../use-focus-heading.ts';
import './history-screen.css';
import { TableHead } from '../../ui/table-head.tsx';
import { ListRuns, listsCleanedAgain } from './list-runs.tsx';

// What happened after the sends loads with its panel: the app's first screen need not wait for it.
const WhatHappened = lazy(() => import('./what-happened.tsx'));

/** Every list Sift has read: reopen, resume, delete, and what it all takes on disk. */
export function HistoryScreen() {
  const jobs = useHistoryStore((state) => state.jobs);
  const dataBytes = useHistoryStore((state) => state.dataBytes);
  const notice = useHistoryStore((state) => state.notice);
  const error = useHistoryStore((state) => state.error);
  const heading = useFocusHeading<HTMLHeadingElement>('history');

  useEffect(() => {
    void historyActions.load();
  }, []);

  return (
    <section className="card" aria-labelledby="history-heading">
      <header className="card__header">
        <div>
          <h2 className="card__title" id="history-heading" tabIndex={-1} ref={heading}>
            History
          </h2>
          <p className="card__meta" data-testid="data-usage">
            {dataBytes === undefined ? '' : `Sift's lists and exports take ${formatBytes(dataBytes)} on this computer.`}
          </p>
        </div>
      </header>
      <p className="visually-hidden" role="status">
        {notice ?? ''}
      </p>
      {notice && <p className="note">{notice}</p>}
      {error && (
        <div className="alert" role="alert">
          {error}
        </div>
      )}
      {jobs.length === 0 ? (
        <p className="note history__empty">No lists yet. Lists you clean appear here.</p>
      ) : (
        <table className="data-table" data-testid="history-table">
          <caption className="visually-hidden">Lists Sift has read, newest first</caption>
          <TableHead columns={['List', 'Date', 'Service', 'Rows', 'Result', 'Status']} />
          <tbody>
            {jobs.map((job) => (
              <HistoryRow key={job.jobId} job={job} />
            ))}
          </tbody>
        </table>
      )}
      {listsCleanedAgain(jobs).map((list) => (
        <ListRuns key={list.fileName} list={list} />
      ))}
      <Suspense fallback={null}>
        <WhatHappened />
      </Suspense>
    </section>
  );
}

function verdictSplit(job: JobListItem): string {
  const summary = job.summary;
  if (job.phase === 'imported') return 'Not cleaned yet';
  if (!summary) {
    return `${formatCount(job.progress.checked)} of ${formatCount(job.progress.total)} ${job.demo ? 'given demo verdicts' : 'checked'}`;
  }
  const parts: [string, number][] = [
    ['valid', summary.valid],
    ['invalid', summary.invalid],
    ['catch-all', summary.catch_all],
    ['unknown', summary.unknown],
    ['not checked', summary.unverified],
  ];
  const split = parts
    .filter(([, count]) => count > 0)
    .map(([label, count]) => `${formatCount(count)} ${label}`)
    .join(' · ');
  return job.demo ? `Demo verdicts: ${split}` : split;
}

function HistoryRow({ job }: { job: JobListItem }) {
  const paused = job.phase === 'submitting' || job.phase === 'reading';
  const open = () => {
    go('clean');
    void cleanActions.openJob(job.jobId);
  };
  return (
    <tr data-testid="history-row">
      <th scope="row" title={job.fileName}>
        {job.fileName}
      </th>
      <td>{new Date(job.createdAt).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' })}</td>
      <td>{job.service}</td>
      <td>{formatCount(job.rows)}</td>
      <td>{verdictSplit(job)}</td>
      <td title={job.error ?? undefined}>{describePhase(job.phase, job.error)}</td>
      <td>
        <div className="history__actions">
          <button type="button" className="button" onClick={open} aria-label={`Open ${job.fileName}`}>
            Open
          </button>
          {paused && job.error && (
            <button
              type="button"
              className="button"
              onClick={() => void historyActions.resume(job.jobId)}
              aria-label={`Resume ${job.fileName}`}
            >
              Resume
            </button>
          )}
          <ConfirmButton
            ask={{ label: 'Delete', ariaLabel: `Delete ${job.fileName}`, disabled: paused && !job.error }}
            confirm={{ label: 'Delete for good', ariaLabel: `Yes, delete ${job.fileName}` }}
            keep="Keep"
            onConfirm={() => historyActions.remove(job.jobId)}
          />
        </div>
      </td>
    </tr>
  );
}
