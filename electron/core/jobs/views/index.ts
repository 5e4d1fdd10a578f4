// The views' public face: what the app and the CLI read of jobs (overviews, History's rows, the funnel,
// the row explorer and the breakdown), from the store, never changing a verdict.
export { jobReads, listBreakdown, type JobReads } from './job-reads.ts';
export { jobViews } from './job-views.ts';
export { listOutcomes } from './list-outcomes.ts';
export { summariseJob } from './list-summary.ts';
export { createRowExplorer } from './row-explorer.ts';
export { searchIndexes } from './search-index.ts';
