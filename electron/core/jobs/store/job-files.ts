// Where the app keeps a job's files in its data folder, and what they take on disk: the copy of a list
// that was uploaded (a dropped file in the browser), the files each export wrote, and the job's list file.
// Deleting a job removes them all and says how much space that gave back.
import { readdir, rm, stat } from 'node:fs/promises';
import { basename, join } from 'node:path';

export const appJobFolders = {
  /** Copies of uploaded lists, one per job: `<data>/inputs/<jobId>.csv`. */
  inputs: 'inputs',
  /** What the app's exports wrote, one folder per job: `<data>/exports/<jobId>/`. */
  exports: 'exports',
} as const;

export const inputCopyPath = (dataDir: string, jobId: string) => join(dataDir, appJobFolders.inputs, `${jobId}.csv`);
export const exportFolder = (dataDir: string, jobId: string) => join(dataDir, appJobFolders.exports, jobId);
/** The export folder of what is not a job's: the outcomes, exported from History. */
export const outcomesExportFolder = 'outcomes';

/**
 * Where both transports serve a job's exported files, `downloads/<jobId>/<file name>`, and the outcomes
 * exported from History, `downloads/outcomes/<file name>` (`<data>/exports/outcomes/`).
 */
export const downloadsFolder = 'downloads';
const downloadPathOf = (jobId: string, name: string) => `${downloadsFolder}/${jobId}/${encodeURIComponent(name)}`;
/** Whether a URL path asks for an exported file (static-files.ts resolves it, refusing anything else). */
export const isDownloadPath = (urlPath: string) => urlPath.startsWith(`/${downloadsFolder}/`);

/** Bytes a file or folder (with everything in it) takes; 0 when it is not there. */
export async function sizeOnDisk(path: string): Promise<number> {
  const info = await stat(path).catch(() => null);
  if (!info) return 0;
  if (!info.isDirectory()) return info.size;
  let total = 0;
  for (const entry of await readdir(path)) total += await sizeOnDisk(join(path, entry));
  return total;
}

/** The files of a job the app made, besides its list file: only copies in the data folder, never a person's own file. */
export function appFilesOf(dataDir: string, jobId: string): string[] {
  return [inputCopyPath(dataDir, jobId), exportFolder(dataDir, jobId)];
}

/** Removes `paths` and answers the bytes they took. */
export async function removeFiles(paths: readonly string[]): Promise<number> {
  let freed = 0;
  for (const path of paths) {
    freed += await sizeOnDisk(path);
    await rm(path, { recursive: true, force: true });
  }
  return freed;
}

/** The files an export wrote, as the app lists them: name, size and where both transports serve each. */
export async function exportedFiles<Kind extends string>(
  jobId: string,
  written: readonly { kind: Kind; path: string }[],
): Promise<{ kind: Kind; name: string; sizeBytes: number; downloadPath: string }[]> {
  return Promise.all(
    written.map(async ({ kind, path }) => {
      const name = basename(path);
      return { kind, name, sizeBytes: (await stat(path)).size, downloadPath: downloadPathOf(jobId, name) };
    }),
  );
}
