import type { JobListItem } from '../../../electron/common/contract.ts';
import { formatCount } from '../format.ts';
import { describePhase } from '../phase-words.ts';
import './recent-jobs.css';

type RecentJobsProps = { jobs: JobListItem[]; onOpen(jobId: string): void };

export function RecentJobs({ jobs, onOpen }: RecentJobsProps) {
  if (jobs.length === 0) return null;
  return (
    <section className="card recent" aria-label="Recent lists">
      <h2 className="recent__title">Recent lists</h2>
      <ul className="recent__list" data-testid="recent-jobs">
        {jobs.map((job) => (
          <li key={job.jobId}>
            <button type="button" className="recent__item" onClick={() => onOpen(job.jobId)}>
              <span className="recent__name">{job.fileName}</span>
              <span className={`recent__phase recent__phase--${job.phase}`}>{describePhase(job.phase, job.error)}</span>
              <span className="recent__meta">
                {job.demo ? 'Demo · ' : ''}
                {formatCount(job.progress.checked)} / {formatCount(job.progress.total)} {job.demo ? 'given' : 'checked'}{' '}
                · {new Date(job.createdAt).toLocaleString()}
              </span>
            </button>
          </li>
        ))}
      </ul>
    </section>
  );
}
