// The desktop app's Save dialog and file manager for exported files. Electron's parts are passed in, so
// this is tested with fakes like the rest of the shell.
import { copyFile } from 'node:fs/promises';
import type { BrowserWindow, Dialog, Shell } from 'electron';
import type { DesktopFiles } from '../core/app/export-file-handlers.ts';

export type DesktopFileParts = {
  dialog: Pick<Dialog, 'showSaveDialog'>;
  shell: Pick<Shell, 'showItemInFolder'>;
  BrowserWindow: Pick<typeof BrowserWindow, 'getFocusedWindow'>;
  downloadsDir(): string;
};

export function desktopFiles(parts: DesktopFileParts): DesktopFiles {
  return {
    async saveCopy(path, suggestedName) {
      const options = {
        title: 'Save a copy',
        defaultPath: `${parts.downloadsDir()}/${suggestedName}`,
        filters: [{ name: fileKindName(suggestedName), extensions: [suggestedName.split('.').pop()!] }],
      };
      const parent = parts.BrowserWindow.getFocusedWindow();
      const chosen = parent
        ? await parts.dialog.showSaveDialog(parent, options)
        : await parts.dialog.showSaveDialog(options);
      if (chosen.canceled || !chosen.filePath) return null;
      await copyFile(path, chosen.filePath);
      return chosen.filePath;
    },
    showInFolder: (path) => parts.shell.showItemInFolder(path),
  };
}

/** What the Save dialog calls the file's kind, by its extension. */
function fileKindName(name: string): string {
  if (name.endsWith('.json')) return 'JSON';
  if (name.endsWith('.xlsx')) return 'Excel workbook';
  return name.endsWith('.tsv') ? 'Tab-separated text' : 'CSV';
}
