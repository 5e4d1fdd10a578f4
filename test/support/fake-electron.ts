// A stand-in for the `electron` module: records what the shell asks of Electron so tests can
// check it, and lets them play the part of IPC senders, navigations and window-open requests.
import { EventEmitter } from 'node:events';
import type { Envelope } from '../../electron/common/contract.ts';

type Handler = (event: unknown, request: unknown) => Promise<Envelope<unknown>>;

class FakeWebContents extends EventEmitter {
  windowOpenHandler?: (details: { url: string }) => { action: string };
  sent: { channel: string; payload: unknown }[] = [];
  setWindowOpenHandler(handler: (details: { url: string }) => { action: string }) {
    this.windowOpenHandler = handler;
  }
  send(channel: string, payload: unknown) {
    this.sent.push({ channel, payload });
  }
  isDestroyed() {
    return false;
  }
  /** Emits `will-navigate` and says whether the shell blocked it. */
  navigate(url: string): boolean {
    let prevented = false;
    this.emit('will-navigate', { preventDefault: () => (prevented = true) }, url);
    return prevented;
  }
}

/** A stand-in for electron-store: the settings document in memory. */
export class FakeElectronStore {
  static instances: FakeElectronStore[] = [];
  store: Record<string, unknown> = {};
  constructor() {
    FakeElectronStore.instances.push(this);
  }
}

export function createFakeElectron(userDataDir: string) {
  const windows: FakeBrowserWindow[] = [];
  const handlers = new Map<string, Handler>();
  const protocolHandlers = new Map<string, (request: { url: string }) => Promise<Response>>();
  const app = new (class extends EventEmitter {
    sandboxEnabled = false;
    enableSandbox() {
      this.sandboxEnabled = true;
    }
    whenReady() {
      return Promise.resolve();
    }
    getPath(name: string) {
      if (name === 'downloads') return `${userDataDir}/Downloads`;
      if (name !== 'userData') throw new Error(`unexpected getPath(${name})`);
      return userDataDir;
    }
    getVersion() {
      return '9.9.9';
    }
    name = 'Sift';
    isPackaged = false;
    recentDocuments: string[] = [];
    addRecentDocument(path: string) {
      this.recentDocuments.push(path);
    }
    /** Said when the app asks to quit, so a test can wait for Sift to close (quit-after-close.ts). */
    quit() {
      this.emit('quit-asked');
    }
  })();

  class FakeBrowserWindow extends EventEmitter {
    static getAllWindows = () => windows;
    webContents = new FakeWebContents();
    loadedUrl?: string;
    readonly options: Record<string, unknown>;
    constructor(options: Record<string, unknown>) {
      super();
      this.options = options;
      windows.push(this);
      app.emit('web-contents-created', {}, this.webContents);
    }
    static getFocusedWindow = () => windows.find((window) => window.focused) ?? null;
    focused = true;
    progressBar: number[] = [];
    loadURL(url: string) {
      this.loadedUrl = url;
      return Promise.resolve();
    }
    show() {}
    isFocused() {
      return this.focused;
    }
    isMinimized() {
      return false;
    }
    restore() {}
    focus() {
      this.focused = true;
    }
    setProgressBar(progress: number) {
      this.progressBar.push(progress);
    }
  }

  const menus: { template: unknown[] }[] = [];
  const notifications: { title: string; body: string }[] = [];
  const openDialogAnswers: { canceled: boolean; filePaths: string[] }[] = [];
  const openedPaths: string[] = [];
  const saveDialogAnswers: { canceled: boolean; filePath?: string }[] = [];
  const shownInFolder: string[] = [];

  const errorBoxes: { title: string; content: string }[] = [];
  const electron = {
    app,
    dialog: {
      showErrorBox: (title: string, content: string) => void errorBoxes.push({ title, content }),
      showOpenDialog: async (..._args: unknown[]) => openDialogAnswers.shift() ?? { canceled: true, filePaths: [] },
      showSaveDialog: async (..._args: unknown[]) => saveDialogAnswers.shift() ?? { canceled: true },
    },
    Menu: {
      buildFromTemplate: (template: unknown[]) => ({ template }),
      setApplicationMenu: (menu: { template: unknown[] }) => void menus.push(menu),
    },
    shell: {
      openPath: async (path: string) => void openedPaths.push(path),
      showItemInFolder: (path: string) => void shownInFolder.push(path),
    },
    // A stand-in keyring: reversible, and visibly not the plain key.
    safeStorage: {
      available: true,
      isEncryptionAvailable() {
        return this.available;
      },
      encryptString: (plain: string) => Buffer.from(`enc:${Buffer.from(plain).toString('base64')}`),
      decryptString: (encrypted: Buffer) => Buffer.from(encrypted.toString().slice('enc:'.length), 'base64').toString(),
    },
    Notification: class {
      static isSupported = () => true;
      readonly options: { title: string; body: string };
      constructor(options: { title: string; body: string }) {
        this.options = options;
      }
      show() {
        notifications.push(this.options);
      }
    },
    BrowserWindow: FakeBrowserWindow,
    nativeTheme: {
      themeSource: 'system' as 'system' | 'light' | 'dark',
      get shouldUseDarkColors() {
        return this.themeSource === 'dark';
      },
    },
    ipcMain: { handle: (channel: string, handler: Handler) => void handlers.set(channel, handler) },
    protocol: {
      privileged: [] as unknown[],
      registerSchemesAsPrivileged(schemes: unknown[]) {
        this.privileged.push(...schemes);
      },
      handle: (scheme: string, handler: (request: { url: string }) => Promise<Response>) =>
        void protocolHandlers.set(scheme, handler),
    },
    session: {
      defaultSession: {
        permissionHandler: undefined as
          undefined | ((contents: unknown, permission: string, callback: (granted: boolean) => void) => void),
        setPermissionRequestHandler(
          handler: (contents: unknown, permission: string, callback: (granted: boolean) => void) => void,
        ) {
          this.permissionHandler = handler;
        },
      },
    },
  };
  return {
    electron,
    windows,
    handlers,
    protocolHandlers,
    errorBoxes,
    menus,
    notifications,
    openDialogAnswers,
    openedPaths,
    saveDialogAnswers,
    shownInFolder,
  };
}
