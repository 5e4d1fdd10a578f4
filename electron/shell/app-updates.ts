// Updates of the installed desktop app, through electron-updater from the feed the build was given
// (SIFT_UPDATE_URL at `npm run dist:desktop`): checked at start and from the menu, downloaded in the
// background, installed only when the person says so. Electron's parts come in as arguments, so the
// prompts are tested with fakes.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { MessageBoxOptions, MessageBoxReturnValue } from 'electron';

type UpdateInfo = { version: string };

/** What Sift uses of electron-updater's autoUpdater. */
export type UpdaterPart = {
  autoDownload: boolean;
  autoInstallOnAppQuit: boolean;
  checkForUpdates(): Promise<unknown>;
  quitAndInstall(isSilent?: boolean, isForceRunAfter?: boolean): void;
  on(event: 'update-available' | 'update-downloaded', listener: (info: UpdateInfo) => void): unknown;
  on(event: 'update-not-available', listener: () => void): unknown;
  on(event: 'error', listener: (error: Error) => void): unknown;
};

export type UpdateParts = {
  updater: UpdaterPart;
  dialog: { showMessageBox(options: MessageBoxOptions): Promise<MessageBoxReturnValue> };
  currentVersion: string;
  log?: (message: string) => void;
};

export type AppUpdates = { checkAtStart(): void; checkFromMenu(): void };

/** An installed build with a feed: electron-builder writes app-update.yml beside the app only when given one. */
export function updateFeedConfigured(
  isPackaged: boolean,
  resourcesPath: string,
  exists: (path: string) => boolean = existsSync,
): boolean {
  return isPackaged && exists(join(resourcesPath, 'app-update.yml'));
}

export function setupUpdates(parts: UpdateParts): AppUpdates {
  const { updater, dialog, currentVersion } = parts;
  const log = parts.log ?? ((message: string) => console.error(message));
  // Downloaded in the background; never installed behind the person's back, not even on quit.
  updater.autoDownload = true;
  updater.autoInstallOnAppQuit = false;
  /** Whether the person asked (the menu): only then is "nothing new" or a failure worth a dialog. */
  let askedByPerson = false;
  let ready: string | undefined;
  let prompting = false;

  const offerInstall = async (version: string) => {
    if (prompting) return;
    prompting = true;
    try {
      const { response } = await dialog.showMessageBox({
        type: 'info',
        buttons: ['Restart and Install', 'Later'],
        defaultId: 0,
        cancelId: 1,
        message: `Sift ${version} is ready to install`,
        detail: `You have ${currentVersion}. Restarting pauses any list being checked; it carries on after the restart. "Later" keeps it until you choose Check for Updates again.`,
      });
      if (response === 0) updater.quitAndInstall(false, true);
    } finally {
      prompting = false;
    }
  };
  const tell = (options: MessageBoxOptions) => void dialog.showMessageBox(options).catch(() => undefined);

  updater.on('update-downloaded', (info) => {
    ready = info.version;
    void offerInstall(info.version);
  });
  updater.on('update-available', (info) => {
    if (askedByPerson)
      tell({
        type: 'info',
        message: `Sift ${info.version} is downloading`,
        detail: 'It downloads in the background; you will be asked before it is installed.',
      });
  });
  updater.on('update-not-available', () => {
    if (askedByPerson) tell({ type: 'info', message: `Sift ${currentVersion} is the newest version.` });
  });
  updater.on('error', (error) => {
    log(`Sift could not check for updates: ${error.message}`);
    if (askedByPerson) tell({ type: 'warning', message: 'Sift could not check for updates', detail: error.message });
  });

  const check = (byPerson: boolean) => {
    askedByPerson = byPerson;
    // A failure also arrives as 'error', which says it.
    updater.checkForUpdates().catch(() => undefined);
  };
  return {
    checkAtStart: () => check(false),
    checkFromMenu: () => (ready ? void offerInstall(ready) : check(true)),
  };
}
