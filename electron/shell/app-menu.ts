// The desktop app's menu: File (Open…, Open Recent, Close, Quit), Edit, View, Window and Help, as people
// expect of a desktop app on each platform. Built from plain data so it is tested without Electron.
import type { MenuItemConstructorOptions } from 'electron';

export type RecentList = { jobId: string; fileName: string };

export type MenuActions = {
  /** File ▸ Open…: choose a CSV with the system's dialog. */
  open(): void;
  openRecent(jobId: string): void;
  showDataFolder(): void;
  /** Help ▸ Check for Updates…, in an installed build with an update feed. */
  checkForUpdates?(): void;
};

export type MenuOptions = { platform: NodeJS.Platform; appName: string; devTools: boolean };

const recentShown = 10;

export function appMenuTemplate(
  options: MenuOptions,
  recent: readonly RecentList[],
  actions: MenuActions,
): MenuItemConstructorOptions[] {
  const mac = options.platform === 'darwin';
  const recentItems: MenuItemConstructorOptions[] =
    recent.length === 0
      ? [{ label: 'No recent lists', enabled: false }]
      : recent
          .slice(0, recentShown)
          .map((list) => ({ label: list.fileName, click: () => actions.openRecent(list.jobId) }));
  const file: MenuItemConstructorOptions = {
    label: 'File',
    submenu: [
      { label: 'Open…', accelerator: 'CmdOrCtrl+O', click: () => actions.open() },
      { label: 'Open Recent', submenu: recentItems },
      { type: 'separator' },
      { role: 'close' },
      ...(mac ? [] : [{ type: 'separator' } as const, { role: 'quit' } as const]),
    ],
  };
  const view: MenuItemConstructorOptions = {
    label: 'View',
    submenu: [
      ...(options.devTools ? [{ role: 'reload' } as const, { role: 'toggleDevTools' } as const] : []),
      { role: 'resetZoom' },
      { role: 'zoomIn' },
      { role: 'zoomOut' },
      { type: 'separator' },
      { role: 'togglefullscreen' },
    ],
  };
  const help: MenuItemConstructorOptions = {
    role: 'help',
    submenu: [
      { label: `Show ${options.appName}'s Data Folder`, click: () => actions.showDataFolder() },
      ...(actions.checkForUpdates
        ? [{ label: 'Check for Updates…', click: () => actions.checkForUpdates?.() } as const]
        : []),
      ...(mac ? [] : [{ role: 'about' } as const]),
    ],
  };
  return [
    ...(mac ? [{ role: 'appMenu' } as const] : []),
    file,
    { role: 'editMenu' },
    view,
    { role: 'windowMenu' },
    help,
  ];
}
