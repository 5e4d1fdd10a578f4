import { sift } from '../bridge.ts';
import { SaveWrittenFile } from './save-written-file.tsx';

/** "Save report…": the finished list's report, one HTML file to hand on (it prints to at most two pages). */
export function SaveReport({ jobId }: { jobId: string }) {
  return (
    <SaveWrittenFile
      id="report"
      label="Save report…"
      busyLabel="Writing the report…"
      savedLabel="Report"
      write={() => sift.jobs.report({ jobId })}
    />
  );
}
