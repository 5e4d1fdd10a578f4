import { useEffect, useState } from 'react';
import { useCleanStore } from '../stores/clean-store.ts';
import type { JobOverview } from '../../../electron/common/contract.ts';
import { describeTimeLeft, formatDuration } from '../../../electron/common/durations.ts';
import { formatCount } from '../format.ts';
import { describePhase } from '../phase-words.ts';
import { DemoNotice } from './demo-notice.tsx';
import './job-progress.css';

type JobProgressProps = {
  job: JobOverview;
  busy: boolean;
  /** Cancel was asked for and the job has not ended yet. */
  canceling: boolean;
  onCancel(): void;
  onResume(): void;
};

/** Addresses per second over the last half minute of progress, and how long this screen has shown the job. */
function useRate(jobId: string) {
  const samples = useCleanStore((state) => state.progressSamples);
  const [startedAt] = useState(() => Date.now());
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, []);
  const ofJob = samples.filter((sample) => sample.jobId === jobId);
  const first = ofJob[0];
  const last = ofJob.at(-1);
  const rate = first && last && last.at > first.at ? ((last.checked - first.checked) * 1000) / (last.at - first.at) : 0;
  return { rate, elapsedSeconds: (now - startedAt) / 1000 };
}

export function JobProgress({ job, busy, canceling, onCancel, onResume }: JobProgressProps) {
  const { checked, total, parts, etaSeconds, politePace } = job.progress;
  const percent = total === 0 ? 100 : Math.floor((checked / total) * 100);
  const { rate, elapsedSeconds } = useRate(job.jobId);
  const remaining = total - checked;
  const paused = job.error !== null;
  // Main's estimate covers the whole run (this screen may have opened late); the screen's own rate otherwise.
  const secondsLeft = etaSeconds ?? (rate > 0 ? remaining / rate : undefined);
  const timing = [
    `${formatDuration(elapsedSeconds)} elapsed`,
    ...(rate > 0 && !paused ? [`${formatCount(Math.round(rate))} a second`] : []),
    ...(secondsLeft !== undefined && remaining > 0 && !paused ? [describeTimeLeft(secondsLeft, politePace)] : []),
  ].join(' · ');
  // Parts are read while the next ones are sent: what was checked so far shows beside what was sent.
  const sending = parts
    ? `Sending the list… ${formatCount(parts.sent)} of ${formatCount(parts.total)} ${parts.total === 1 ? 'batch' : 'batches'} sent` +
      (checked > 0
        ? ` · ${formatCount(checked)} of ${formatCount(total)} addresses ${job.demo ? 'given demo verdicts' : 'checked'}`
        : '')
    : 'Sending the list…';
  return (
    <section className="card card--padded" aria-label="Cleaning progress">
      <h2 className="card__title">
        {job.demo ? 'Demo run of' : 'Cleaning'} {job.fileName}
      </h2>
      {job.demo && <DemoNotice />}
      <p className="card__meta" data-testid="progress-text">
        {canceling
          ? 'Canceling… what was checked so far is kept.'
          : job.phase === 'submitting' || job.phase === 'imported'
            ? sending
            : `${describePhase(job.phase, job.error)}: ${formatCount(checked)} of ${formatCount(total)} addresses`}
      </p>
      <progress className="progress" max={100} value={percent} aria-label={`${percent}% checked`} />
      <p className="card__meta" data-testid="progress-timing">
        {timing}
      </p>
      {paused ? (
        <div className="alert" role="alert" data-testid="job-paused">
          <strong>Paused.</strong> {job.error} Nothing is lost: what was sent is read back when you resume.
        </div>
      ) : (
        <p className="note">You can close Sift: the job carries on where it stopped when you open it again.</p>
      )}
      <div className="card__actions">
        {paused && (
          <button type="button" className="button button--primary" onClick={onResume} disabled={busy}>
            Resume
          </button>
        )}
        <button type="button" className="button" onClick={onCancel} disabled={busy || canceling}>
          {canceling ? 'Canceling…' : 'Cancel (keeps what was checked)'}
        </button>
      </div>
    </section>
  );
}
