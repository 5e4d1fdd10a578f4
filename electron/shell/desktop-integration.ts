// The desktop app's manners, wired to the core: the menu (with Open… and Open Recent), taskbar or dock
// progress, and a notification when a long job ends while the window is elsewhere. Electron's parts are
// passed in, so this is tested with fakes like the rest of the shell.
import type { BrowserWindow, Dialog, Menu, MenuItemConstructorOptions, Notification, Shell } from 'electron';
import type { CallName, CallResult, EventPayload, JobListItem, JobOverview } from '../common/contract.ts';
import { isFinishedPhase } from '../common/job-phases.ts';
import type { AppRuntime } from '../core/app/app-runtime.ts';
import { appMenuTemplate } from './app-menu.ts';
import { createJobAttention, describeEndedJob } from './job-attention.ts';

export type DesktopParts = {
  app: { name: string; isPackaged: boolean; addRecentDocument(path: string): void; getPath(name: 'userData'): string };
  Menu: Pick<typeof Menu, 'buildFromTemplate' | 'setApplicationMenu'>;
  dialog: Pick<Dialog, 'showOpenDialog'>;
  shell: Pick<Shell, 'openPath'>;
  Notification: Pick<typeof Notification, 'isSupported'> &
    (new (options: { title: string; body: string }) => { show(): void });
  BrowserWindow: Pick<typeof BrowserWindow, 'getAllWindows' | 'getFocusedWindow'>;
};

type Runtime = Pick<AppRuntime, 'dispatch' | 'events'>;

async function call<N extends CallName>(runtime: Runtime, name: N, request: unknown): Promise<CallResult<N>> {
  const envelope = await runtime.dispatch(name, request, { transport: 'ipc' });
  if (!envelope.ok) throw new Error(envelope.error.message);
  return envelope.value as CallResult<N>;
}

export function installDesktopIntegration(
  parts: DesktopParts,
  runtime: Runtime,
  log = console.error,
  updates?: { checkFromMenu(): void },
) {
  const window = () => parts.BrowserWindow.getFocusedWindow() ?? parts.BrowserWindow.getAllWindows()[0];
  const bringForward = () => {
    const shown = window();
    if (shown?.isMinimized()) shown.restore();
    shown?.focus();
  };

  const actions = {
    async open() {
      const parent = window();
      const options = {
        title: 'Open a list',
        properties: ['openFile' as const],
        filters: [{ name: 'Lists (CSV, text, Excel)', extensions: ['csv', 'tsv', 'txt', 'xlsx'] }],
      };
      const chosen = parent
        ? await parts.dialog.showOpenDialog(parent, options)
        : await parts.dialog.showOpenDialog(options);
      const path = chosen.filePaths[0];
      if (chosen.canceled || !path) return;
      parts.app.addRecentDocument(path);
      runtime.events.emit('app:didRequestOpen', { path });
    },
    openRecent(jobId: string) {
      bringForward();
      runtime.events.emit('app:didRequestOpen', { jobId });
    },
    showDataFolder() {
      void parts.shell.openPath(parts.app.getPath('userData'));
    },
  };

  async function refreshMenu(): Promise<MenuItemConstructorOptions[]> {
    const recent: JobListItem[] = await call(runtime, 'jobs:list', {});
    const template = appMenuTemplate(
      { platform: process.platform, appName: parts.app.name, devTools: !parts.app.isPackaged },
      recent,
      {
        open: () => void actions.open().catch(log),
        openRecent: actions.openRecent,
        showDataFolder: actions.showDataFolder,
        ...(updates ? { checkForUpdates: () => updates.checkFromMenu() } : {}),
      },
    );
    parts.Menu.setApplicationMenu(parts.Menu.buildFromTemplate(template));
    return template;
  }

  const attention = createJobAttention({
    window,
    notifier: {
      isSupported: () => parts.Notification.isSupported(),
      show: (title, body) => new parts.Notification({ title, body }).show(),
    },
    describe: async (jobId) => describeEndedJob((await call(runtime, 'jobs:get', { jobId })) as JobOverview),
  });

  const unsubscribe = runtime.events.subscribe((name, payload) => {
    if (name !== 'jobs:didProgress') return;
    const progress = payload as EventPayload<'jobs:didProgress'>;
    void attention.onProgress(progress).catch(log);
    // A list that ended belongs in Open Recent.
    if (isFinishedPhase(progress.phase)) void refreshMenu().catch(log);
  });

  return { refreshMenu, actions, close: unsubscribe };
}
