import type { JobOverview } from '../../../electron/common/contract.ts';
import { formatCount } from '../format.ts';

type JobProgressProps = { job: JobOverview; busy: boolean; onCancel(): void; onResume(): void };

export function JobProgress({ job, busy, onCancel, onResume }: JobProgressProps) {
  const { checked, total } = job.progress;
  const percent = total === 0 ? 100 : Math.floor((checked / total) * 100);
  return (
    <section className="card card--padded" aria-label="Cleaning progress">
      <h2 className="card__title">Cleaning {job.fileName}</h2>
      <p className="card__meta" data-testid="progress-text">
        {job.phase === 'submitting'
          ? 'Sending the list…'
          : `${formatCount(checked)} of ${formatCount(total)} addresses checked`}
      </p>
      <progress className="progress" max={100} value={percent} aria-label={`${percent}% checked`} />
      {job.error ? (
        <div className="alert" role="alert" data-testid="job-paused">
          <strong>Paused.</strong> {job.error} Nothing is lost: what was sent is read back when you resume.
        </div>
      ) : (
        <p className="note">You can close Sift: the job carries on where it stopped when you open it again.</p>
      )}
      <div className="card__actions">
        {job.error && (
          <button type="button" className="button button--primary" onClick={onResume} disabled={busy}>
            Resume
          </button>
        )}
        <button type="button" className="button" onClick={onCancel} disabled={busy}>
          Cancel (keeps what was checked)
        </button>
      </div>
    </section>
  );
}
