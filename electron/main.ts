// Electron's main process: a thin shell that wires the plain-Node core to a window and IPC.
import {
  app,
  BrowserWindow,
  dialog,
  ipcMain,
  Menu,
  nativeTheme,
  Notification,
  protocol,
  safeStorage,
  session,
  shell,
  type WebContents,
} from 'electron';
import ElectronStore from 'electron-store';
import electronUpdater from 'electron-updater';
import { fileURLToPath } from 'node:url';
import { createAppRuntime } from './core/app/app-runtime.ts';
import { keepNewFilesPrivate } from './core/storage/private-folder.ts';
import { openDataFolder } from './core/storage/store-versions.ts';
import { appStoreFiles } from './core/app/data-stores.ts';
import { settingsStorage } from './core/connections/app-settings.ts';
import { ciphertextsIn, safeStorageVault } from './core/connections/key-vault.ts';
import { appEntryUrl, isAppUrl } from './shell/app-origin.ts';
import { appSchemePrivileges, registerAppProtocol } from './shell/app-protocol.ts';
import { setupUpdates, updateFeedConfigured } from './shell/app-updates.ts';
import { followAppearance } from './shell/appearance.ts';
import { installDesktopIntegration } from './shell/desktop-integration.ts';
import { desktopFiles } from './shell/desktop-files.ts';
import { forwardEvents, registerContractHandlers } from './shell/ipc-bridge.ts';
import { reportStartupFailure } from './shell/startup-failure.ts';
import { quitAfterClose } from './shell/quit-after-close.ts';
import { mainWindowOptions } from './shell/window-options.ts';

const rendererDir = fileURLToPath(new URL('../renderer/', import.meta.url));
const preloadPath = fileURLToPath(new URL('./preload.cjs', import.meta.url));
const iconPath = fileURLToPath(new URL('../../assets/icon.png', import.meta.url));

protocol.registerSchemesAsPrivileged([appSchemePrivileges]);
app.enableSandbox();

/** Every web contents (windows and anything they might spawn) stays on Sift's own pages. */
export function guardWebContents(contents: WebContents): void {
  contents.setWindowOpenHandler(() => ({ action: 'deny' }));
  contents.on('will-navigate', (event, url) => {
    if (!isAppUrl(url)) event.preventDefault();
  });
  contents.on('will-attach-webview', (event) => event.preventDefault());
}

export function createMainWindow(): BrowserWindow {
  const window = new BrowserWindow(mainWindowOptions(preloadPath, iconPath, nativeTheme.shouldUseDarkColors));
  window.once('ready-to-show', () => window.show());
  void window.loadURL(appEntryUrl);
  return window;
}

app.on('web-contents-created', (_event, contents) => guardWebContents(contents));
app.on('window-all-closed', () => {
  if (process.platform !== 'darwin') app.quit();
});

export const ready = app
  .whenReady()
  .then(async () => {
    session.defaultSession.setPermissionRequestHandler((_contents, _permission, callback) => callback(false));
    // The data folder is this person's alone, before anything is written to it.
    keepNewFilesPrivate();
    const dataDir = openDataFolder(app.getPath('userData'), appStoreFiles, app.getVersion(), (line) =>
      console.log(line),
    );
    // Settings in electron-store; a hosted service's key encrypted with the OS keyring (safeStorage).
    const settingsFile = new ElectronStore({ name: 'settings' });
    const vault = safeStorageVault(safeStorage, ciphertextsIn(settingsStorage(settingsFile)));
    const runtime = await createAppRuntime({
      dataDir,
      appVersion: app.getVersion(),
      settingsFile,
      vault,
      desktop: desktopFiles({ dialog, shell, BrowserWindow, downloadsDir: () => app.getPath('downloads') }),
    });
    registerAppProtocol(protocol, { rendererDir, exportsDir: runtime.exportsDir });
    registerContractHandlers(ipcMain, runtime.dispatch);
    forwardEvents(runtime.events, () => BrowserWindow.getAllWindows().map((window) => window.webContents));
    await followAppearance(nativeTheme, runtime);
    // Updates only in an installed build given a feed (SIFT_UPDATE_URL when it was built).
    const updates = updateFeedConfigured(app.isPackaged, process.resourcesPath)
      ? setupUpdates({ updater: electronUpdater.autoUpdater, dialog, currentVersion: app.getVersion() })
      : undefined;
    const desktop = installDesktopIntegration(
      { app, Menu, dialog, shell, Notification, BrowserWindow },
      runtime,
      console.error,
      updates,
    );
    await desktop.refreshMenu();
    app.on('activate', () => {
      if (BrowserWindow.getAllWindows().length === 0) createMainWindow();
    });
    // Quitting waits for jobs to pause and this run's keys to be revoked.
    quitAfterClose(app, () => runtime.close());
    createMainWindow();
    updates?.checkAtStart();
  })
  .catch((error: unknown) => reportStartupFailure(error, { app, dialog }));
