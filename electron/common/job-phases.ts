// Where a job stands, defined once for main, the CLI and the renderer.
//   importing  → the list is being read and pre-checked (nothing sent)
//   imported   → ready: pre-check counts and cost are known
//   submitting → its batches are being created at the service
//   reading    → the service is checking; verdicts are read back as they come
//   done / failed / canceled → finished: every verdict the service will give is in
export const jobPhases = ['importing', 'imported', 'submitting', 'reading', 'done', 'failed', 'canceled'] as const;
export type JobPhase = (typeof jobPhases)[number];

const finishedJobPhases: readonly JobPhase[] = ['done', 'failed', 'canceled'];

export function isFinishedPhase(phase: JobPhase): boolean {
  return finishedJobPhases.includes(phase);
}
