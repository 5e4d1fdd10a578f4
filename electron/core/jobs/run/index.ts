// The run's public face: what checking a list will cost, and the run itself (send each part once, read
// its verdicts back, resumable at any moment), canceled or planned again for what was left.
export { cancelJob, endRun, planRetry, runJob, type JobProgress, type RunOptions } from './job-runner.ts';
export { costOfChecks, CostNotCovered, estimateCost, needsService, type Cost } from './job-cost.ts';
