// Export's public face: a job's outputs written beside (or into) a folder, whole or not at all. The row
// writers, the annotation and the reader thread stay inside.
export { annotatedCsvOf, exportJob, refreshSummary, type ExportResult } from './list-export.ts';
