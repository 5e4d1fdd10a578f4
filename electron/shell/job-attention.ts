// What the desktop shows of jobs while the window is elsewhere: progress on the taskbar or dock icon, and
// a notification when a long job ends while the window is not focused.
import type { EventPayload, JobOverview } from '../common/contract.ts';
import { isFinishedPhase } from '../common/job-phases.ts';

type AttentionWindow = { isFocused(): boolean; setProgressBar(progress: number): void };
type Notifier = { isSupported(): boolean; show(title: string, body: string): void };
type Progress = EventPayload<'jobs:didProgress'>;

/** A job that took less than this ends while the person is still looking: no notification. */
const longJobMs = 10_000;

export type JobAttentionDeps = {
  window(): AttentionWindow | undefined;
  notifier: Notifier;
  /** The words of a notification for an ended job ("newsletter.csv is cleaned", "7 valid of 9 checked"). */
  describe(jobId: string): Promise<{ title: string; body: string }>;
  now?: () => number;
};

export function createJobAttention(deps: JobAttentionDeps) {
  const now = deps.now ?? Date.now;
  const running = new Map<string, { checked: number; total: number; since: number }>();

  function showProgress() {
    const window = deps.window();
    if (!window) return;
    let checked = 0;
    let total = 0;
    for (const job of running.values()) {
      checked += job.checked;
      total += job.total;
    }
    // -1 takes the bar away; 2 shows an indeterminate bar while nothing is counted yet.
    window.setProgressBar(running.size === 0 ? -1 : total === 0 ? 2 : checked / total);
  }

  return {
    /** Hear of a job's progress (a `jobs:didProgress` event). */
    async onProgress(progress: Progress): Promise<void> {
      const seen = running.get(progress.jobId);
      if (!isFinishedPhase(progress.phase)) {
        if (progress.phase === 'submitting' || progress.phase === 'reading') {
          running.set(progress.jobId, {
            checked: progress.checked,
            total: progress.total,
            since: seen?.since ?? now(),
          });
          showProgress();
        }
        return;
      }
      running.delete(progress.jobId);
      showProgress();
      const window = deps.window();
      if (!seen || now() - seen.since < longJobMs || !window || window.isFocused() || !deps.notifier.isSupported()) {
        return;
      }
      const { title, body } = await deps.describe(progress.jobId);
      deps.notifier.show(title, body);
    },
  };
}

/** The notification for a job that ended, in the words of the results screen. */
export function describeEndedJob(job: JobOverview): { title: string; body: string } {
  const summary = job.summary;
  if (job.phase === 'done') {
    const checked = summary
      ? `${summary.valid.toLocaleString('en')} valid of ${summary.to_check.toLocaleString('en')} checked.`
      : '';
    return { title: `${job.fileName} is cleaned`, body: `${checked} Open Sift to export it.`.trim() };
  }
  const ended = job.phase === 'canceled' ? 'was canceled' : 'stopped';
  return { title: `${job.fileName} ${ended}`, body: job.error ?? 'What was checked is kept.' };
}
