// A job's phase in the words a marketer uses, everywhere the app shows one (never "imported" or "reading").
import type { JobPhase } from '../../electron/common/job-phases.ts';

const phaseWords: Record<JobPhase, string> = {
  importing: 'Reading the file',
  imported: 'Ready to clean',
  submitting: 'Sending',
  reading: 'Checking',
  done: 'Done',
  failed: 'Stopped',
  canceled: 'Canceled',
};

/** What the status bar and History say of a job: its phase, or that it is paused and why. */
export function describePhase(phase: JobPhase, error: string | null): string {
  if (error && (phase === 'submitting' || phase === 'reading')) return 'Paused';
  return phaseWords[phase];
}
