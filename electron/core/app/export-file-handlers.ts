// What the desktop app does with an exported file besides downloading it: save a copy where the person
// chooses, or show it in the file manager. The shell supplies how (Electron's dialog and shell); the
// browser version has neither and says so.
import { stat } from 'node:fs/promises';
import { basename } from 'node:path';
import { AppError } from '../../common/app-error.ts';
import type { Handlers } from './dispatch.ts';
import { resolveDownloadPath } from './static-files.ts';

export type DesktopFiles = {
  /** Asks where to save a copy of `path` (the system's Save dialog); answers where, or null when canceled. */
  saveCopy(path: string, suggestedName: string): Promise<string | null>;
  showInFolder(path: string): void;
};

export function exportFileHandlers(
  exportsDir: string,
  desktop: DesktopFiles | undefined,
): Pick<Handlers, 'exports:saveCopy' | 'exports:showInFolder'> {
  async function exportedFile(downloadPath: string): Promise<{ path: string; desktop: DesktopFiles }> {
    if (!desktop) throw new AppError('bad_request', 'Only the desktop app can do this: download the file instead.');
    const path = resolveDownloadPath(exportsDir, downloadPath);
    if (!path || !(await stat(path).catch(() => null))?.isFile()) {
      throw new AppError('not_found', 'That file is no longer there: export the list again.');
    }
    return { path, desktop };
  }
  return {
    'exports:saveCopy': async ({ downloadPath }) => {
      const { path, desktop: files } = await exportedFile(downloadPath);
      return { savedTo: await files.saveCopy(path, basename(path)) };
    },
    'exports:showInFolder': async ({ downloadPath }) => {
      const { path, desktop: files } = await exportedFile(downloadPath);
      files.showInFolder(path);
      return {};
    },
  };
}
