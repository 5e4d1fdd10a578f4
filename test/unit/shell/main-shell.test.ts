// electron/main.ts against a fake `electron` module: the secure window, the guarded navigation,
// and IPC that checks the sender and the arguments before any logic.
import { chmod, mkdtemp, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { callNames } from '../../../electron/common/contract.ts';
import { createFakeElectron, FakeElectronStore } from '../../support/fake-electron.ts';

const userData = await mkdtemp(join(tmpdir(), 'sift-main-'));
const fake = createFakeElectron(userData);
vi.mock('electron', () => fake.electron);
vi.mock('electron-store', () => ({ default: FakeElectronStore }));

const trusted = { senderFrame: { url: 'app://sift/index.html', parent: null } };

describe('electron main', () => {
  beforeAll(async () => {
    // A folder an earlier version left open to other users of the computer.
    await chmod(userData, 0o755);
    await writeFile(join(userData, 'suppression.sqlite'), '', { mode: 0o644 });
    await chmod(join(userData, 'suppression.sqlite'), 0o644);
    const main = await import('../../../electron/main.ts');
    await main.ready;
  });
  // Quit as a person does: Sift closes (its jobs pause, its databases close) before the app quits.
  afterAll(async () => {
    const quit = new Promise((resolve) => fake.electron.app.once('quit-asked', resolve));
    fake.electron.app.emit('before-quit', { preventDefault: () => undefined });
    await quit;
  });

  it('makes the data folder private before it writes to it: 0700, and what was readable tightened', async () => {
    expect((await stat(userData)).mode & 0o777).toBe(0o700);
    expect((await stat(join(userData, 'suppression.sqlite'))).mode & 0o777).toBe(0o600);
  });

  it('opens one window with the secure options and the app:// entry page', () => {
    expect(fake.windows).toHaveLength(1);
    const [window] = fake.windows;
    const prefs = window!.options.webPreferences as Record<string, unknown>;
    expect(prefs).toMatchObject({
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
    });
    expect(String(prefs.preload)).toMatch(/preload\.cjs$/);
    expect(window!.loadedUrl).toBe('app://sift/index.html');
    expect(fake.electron.app.sandboxEnabled).toBe(true);
  });

  it('denies new windows and navigation away from the app', () => {
    const contents = fake.windows[0]!.webContents;
    expect(contents.windowOpenHandler?.({ url: 'https://example.com' })).toEqual({ action: 'deny' });
    expect(contents.navigate('https://example.com/phish')).toBe(true);
    expect(contents.navigate('file:///etc/passwd')).toBe(true);
    expect(contents.navigate('app://sift/index.html')).toBe(false);
  });

  it('denies every permission request', () => {
    let granted: boolean | undefined;
    fake.electron.session.defaultSession.permissionHandler?.({}, 'media', (value) => (granted = value));
    expect(granted).toBe(false);
  });

  it('registers exactly the contract calls over IPC', () => {
    expect([...fake.handlers.keys()].sort()).toEqual([...callNames].sort());
  });

  it('answers a trusted call through the core', async () => {
    const result = await fake.handlers.get('app:getInfo')!(trusted, {});
    expect(result).toEqual({ ok: true, value: { name: 'Sift', version: '9.9.9', transport: 'ipc' } });
  });

  it('rejects bad arguments with the schema error before any handler runs', async () => {
    const result = await fake.handlers.get('lists:preview')!(trusted, { file: { kind: 'path', path: 42 } });
    expect(result).toMatchObject({ ok: false, error: { code: 'bad_request' } });
    const extra = await fake.handlers.get('app:getInfo')!(trusted, { sneaky: true });
    expect(extra).toMatchObject({ ok: false, error: { code: 'bad_request' } });
  });

  it('refuses calls from an unknown sender', async () => {
    for (const senderFrame of [
      { url: 'https://evil.example/', parent: null },
      { url: 'app://sift/index.html', parent: {} },
      { url: 'file:///tmp/x.html', parent: null },
      null,
    ]) {
      const result = await fake.handlers.get('lists:preview')!(
        { senderFrame },
        { file: { kind: 'path', path: '/etc/hostname' } },
      );
      expect(result).toMatchObject({ ok: false, error: { code: 'forbidden' } });
    }
  });

  it('serves the renderer over app:// with the CSP and refuses paths outside it', async () => {
    const handler = fake.protocolHandlers.get('app')!;
    expect(handler).toBeDefined();
    const escape = await handler({ url: 'app://sift/..%2f..%2fpackage.json' });
    expect(escape.status).toBe(404);
    const otherHost = await handler({ url: 'app://elsewhere/index.html' });
    expect(otherHost.status).toBe(404);
    expect(fake.electron.protocol.privileged).toContainEqual(
      expect.objectContaining({ scheme: 'app', privileges: expect.objectContaining({ standard: true, secure: true }) }),
    );
  });

  it('keeps a hosted key encrypted in electron-store, and answers only its masked form', async () => {
    const key = 'svc_live_shellTestKey0123456789abcd';
    const saved = await fake.handlers.get('settings:saveHosted')!(trusted, {
      baseUrl: 'http://127.0.0.1:9/v1',
      label: 'Team service',
      apiKey: key,
    });
    expect(saved).toMatchObject({
      ok: true,
      value: { service: 'hosted', keyProtection: 'encrypted', hosted: { maskedKey: 'svc_live_…abcd', mode: 'live' } },
    });
    expect(JSON.stringify(saved)).not.toContain(key);
    const stored = FakeElectronStore.instances.at(-1)!.store;
    expect(JSON.stringify(stored)).not.toContain(key);
    expect(Object.values(stored.encryptedKeys as Record<string, string>)).toHaveLength(1);
    await fake.handlers.get('settings:forgetHosted')!(trusted, {});
    expect(FakeElectronStore.instances.at(-1)!.store.encryptedKeys).toEqual({});
  });

  it('saves a copy of an export where the person chooses, and shows it in the file manager', async () => {
    const { writeFile, readFile } = await import('node:fs/promises');
    const call = async (name: string, request: unknown) => {
      const envelope = (await fake.handlers.get(name)!(trusted, request)) as { ok: boolean; value?: unknown };
      if (!envelope.ok) throw new Error(`${name}: ${JSON.stringify(envelope)}`);
      return envelope.value as Record<string, unknown>;
    };
    const csv = join(userData, 'to-save.csv');
    await writeFile(csv, 'email\nvalid.s@example.com\n');
    const job = await call('jobs:create', { file: { kind: 'path', path: csv } });
    await call('settings:useOwn', { mode: 'sandbox' });
    await call('jobs:start', { jobId: job.jobId });
    await vi.waitFor(async () => expect((await call('jobs:get', { jobId: job.jobId })).phase).toBe('done'), {
      timeout: 15_000,
    });
    const exported = await call('jobs:export', { jobId: job.jobId, keep: ['valid'] });
    const cleaned = (exported.files as { kind: string; downloadPath: string }[]).find(
      (file) => file.kind === 'cleaned',
    )!;
    const target = join(userData, 'chosen-copy.csv');
    fake.saveDialogAnswers.push({ canceled: false, filePath: target });
    expect(await call('exports:saveCopy', { downloadPath: cleaned.downloadPath })).toEqual({ savedTo: target });
    expect(await readFile(target, 'utf8')).toContain('valid.s@example.com');
    expect(await call('exports:saveCopy', { downloadPath: cleaned.downloadPath })).toEqual({ savedTo: null });
    await call('exports:showInFolder', { downloadPath: cleaned.downloadPath });
    expect(fake.shownInFolder).toEqual([expect.stringMatching(/to-save\.demo\.cleaned\.csv$/)]);
    const elsewhere = await fake.handlers.get('exports:showInFolder')!(trusted, { downloadPath: '../../etc/passwd' });
    expect(elsewhere).toMatchObject({ ok: false, error: { code: 'not_found' } });
  });

  it('follows the appearance chosen in Settings: the window, its menus and dialogs', async () => {
    expect(fake.electron.nativeTheme.themeSource).toBe('system');
    const chosen = await fake.handlers.get('settings:setAppearance')!(trusted, { appearance: 'dark' });
    expect(chosen).toMatchObject({ ok: true, value: { appearance: 'dark' } });
    expect(fake.electron.nativeTheme.themeSource).toBe('dark');
    expect(fake.windows[0]!.webContents.sent).toContainEqual({
      channel: 'settings:didChangeAppearance',
      payload: { appearance: 'dark' },
    });
    const refused = await fake.handlers.get('settings:setAppearance')!(trusted, { appearance: 'sepia' });
    expect(refused).toMatchObject({ ok: false, error: { code: 'bad_request' } });
    expect(fake.electron.nativeTheme.themeSource).toBe('dark');
    await fake.handlers.get('settings:setAppearance')!(trusted, { appearance: 'system' });
    expect(fake.electron.nativeTheme.themeSource).toBe('system');
  });

  it('forwards core events to the window', async () => {
    const { writeFile } = await import('node:fs/promises');
    const csv = join(userData, 'people.csv');
    await writeFile(csv, 'email\na@example.com\n');
    const result = await fake.handlers.get('lists:preview')!(trusted, { file: { kind: 'path', path: csv } });
    expect(result).toMatchObject({ ok: true, value: { headers: ['email'], rows: [['a@example.com']] } });
    expect(fake.windows[0]!.webContents.sent).toContainEqual({
      channel: 'lists:didPreview',
      payload: { fileName: 'people.csv', rowsShown: 1 },
    });
  });
});

describe("a desktop app's manners", () => {
  type Item = { label?: string; role?: string; accelerator?: string; submenu?: Item[]; click?: () => void };
  const menu = () => fake.menus.at(-1)!.template as Item[];
  const fileMenu = () => menu().find((item) => item.label === 'File')!.submenu!;

  it('has a native menu with Open… on Ctrl/Cmd+O, Open Recent, Edit, View, Window and Help', () => {
    const labels = menu().map((item) => item.label ?? item.role);
    expect(labels).toEqual(expect.arrayContaining(['File', 'editMenu', 'View', 'windowMenu', 'help']));
    expect(fileMenu()[0]).toMatchObject({ label: 'Open…', accelerator: 'CmdOrCtrl+O' });
    // The list cleaned above is in Open Recent, and choosing it opens it in the window.
    const recent = fileMenu().find((item) => item.label === 'Open Recent')!.submenu!;
    expect(recent.map((item) => item.label)).toEqual(['to-save.csv']);
    const sent = fake.windows[0]!.webContents.sent;
    recent[0]!.click!();
    expect(sent.at(-1)).toMatchObject({
      channel: 'app:didRequestOpen',
      payload: { jobId: expect.stringMatching(/^job_/) },
    });
    if (process.platform !== 'darwin') expect(fileMenu().map((item) => item.role)).toContain('quit');
  });

  it('opens the chosen file in the window, and remembers it as a recent document', async () => {
    const csv = join(userData, 'chosen.csv');
    fake.openDialogAnswers.push({ canceled: false, filePaths: [csv] });
    const sent = fake.windows[0]!.webContents.sent;
    const before = sent.length;
    fileMenu()[0]!.click!();
    await vi.waitFor(() =>
      expect(sent.slice(before)).toContainEqual({ channel: 'app:didRequestOpen', payload: { path: csv } }),
    );
    expect(fake.electron.app.recentDocuments).toEqual([csv]);
    // Canceled: nothing happens.
    fileMenu()[0]!.click!();
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(sent.slice(before).filter((message) => message.channel === 'app:didRequestOpen')).toHaveLength(1);
  });
});

describe('taskbar progress and the notification of an ended job', async () => {
  const { createJobAttention, describeEndedJob } = await import('../../../electron/shell/job-attention.ts');
  const jobId = 'job_0123456789abcdef';
  const progress = (phase: 'reading' | 'done', checked: number) => ({ jobId, phase, checked, total: 100, error: null });

  it('shows progress, clears it at the end, and notifies only of a long job while the window is elsewhere', async () => {
    for (const [focused, tookMs, notified] of [
      [false, 60_000, 1],
      [true, 60_000, 0],
      [false, 2_000, 0],
    ] as const) {
      let clock = 0;
      const bar: number[] = [];
      const shown: string[] = [];
      const attention = createJobAttention({
        window: () => ({ isFocused: () => focused, setProgressBar: (value) => void bar.push(value) }),
        notifier: { isSupported: () => true, show: (title, body) => void shown.push(`${title}: ${body}`) },
        describe: async () => ({ title: 'list.csv is cleaned', body: '40 valid of 100 checked.' }),
        now: () => clock,
      });
      await attention.onProgress(progress('reading', 25));
      clock = tookMs;
      await attention.onProgress(progress('reading', 50));
      await attention.onProgress(progress('done', 100));
      expect(bar).toEqual([0.25, 0.5, -1]);
      expect(shown).toHaveLength(notified);
    }
  });

  it('words the notification as the results screen does', () => {
    const job = { fileName: 'list.csv', phase: 'done', error: null, summary: { valid: 1234, to_check: 2000 } };
    expect(describeEndedJob(job as never)).toEqual({
      title: 'list.csv is cleaned',
      body: '1,234 valid of 2,000 checked. Open Sift to export it.',
    });
    expect(describeEndedJob({ ...job, phase: 'canceled', error: null } as never).title).toBe('list.csv was canceled');
  });
});

describe('a start that fails', () => {
  it('tells the person why in a dialog and quits', async () => {
    const { reportStartupFailure } = await import('../../../electron/shell/startup-failure.ts');
    let quit = false;
    const errorBoxes: string[] = [];
    reportStartupFailure(new Error('EACCES: permission denied, mkdir /data/Sift'), {
      app: { quit: () => void (quit = true) },
      dialog: { showErrorBox: (title, content) => void errorBoxes.push(`${title}: ${content}`) },
    });
    expect(errorBoxes).toEqual([expect.stringContaining('Sift could not start: EACCES: permission denied')]);
    expect(quit).toBe(true);
  });
});
