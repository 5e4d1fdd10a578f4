// The store's public face: the catalog of jobs, what a list holds and offers, and where a job's files
// are. Everything outside store/ comes in here; only the job threads open the one list module each runs
// with (list-store-append.ts, list-store-verdicts.ts), so a thread loads SQLite and little else.
export { jobStoreFiles, openJobStore } from './job-store.ts';
export { displayNameOf, finishedOrThrow, hasDemoVerdicts, type JobRecord, type JobStore } from './job-record.ts';
export {
  isActivePart,
  rowsPerChunk,
  verdictFlag,
  type AddressFacts,
  type RowTextStore,
  type ListStore,
  type NewAddress,
  type Part,
  type VerdictColumns,
  type VerdictRow,
} from './list-types.ts';
export { rowsPerTextChunk } from './list-store-rows.ts';
export {
  appFilesOf,
  appJobFolders,
  exportedFiles,
  outcomesExportFolder,
  downloadsFolder,
  exportFolder,
  inputCopyPath,
  isDownloadPath,
  removeFiles,
  sizeOnDisk,
} from './job-files.ts';
