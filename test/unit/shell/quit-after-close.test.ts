// Quitting the desktop app waits for Sift to close (jobs paused, keys revoked), then quits; a close that
// fails is told and the app quits all the same. Electron's app is a fake here.
import { describe, expect, it } from 'vitest';
import { quitAfterClose } from '../../../electron/shell/quit-after-close.ts';

function fakeApp() {
  const listeners: ((event: { preventDefault(): void }) => void)[] = [];
  const app = {
    quits: 0,
    on: (_name: 'before-quit', listener: (event: { preventDefault(): void }) => void) => listeners.push(listener),
    /** What Electron does on quit: asks every listener, and quits unless one prevented it. */
    quit() {
      let prevented = false;
      for (const listener of listeners) listener({ preventDefault: () => (prevented = true) });
      if (!prevented) app.quits += 1;
    },
  };
  return app;
}

describe('quitting the desktop app', () => {
  it('holds the quit until Sift has closed, then quits once', async () => {
    const app = fakeApp();
    let finishClose = () => {};
    let closes = 0;
    quitAfterClose(app, () => {
      closes += 1;
      return new Promise<void>((resolve) => (finishClose = resolve));
    });
    app.quit();
    app.quit(); // asked again while closing: still held, and close is not started twice
    expect(app.quits).toBe(0);
    expect(closes).toBe(1);
    finishClose();
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(app.quits).toBe(1);
  });

  it('quits after a close that failed, saying so', async () => {
    const app = fakeApp();
    const told: string[] = [];
    quitAfterClose(
      app,
      () => Promise.reject(new Error('database busy')),
      (message, error) => told.push(`${message} ${(error as Error).message}`),
    );
    app.quit();
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(app.quits).toBe(1);
    expect(told).toEqual(['Sift could not close cleanly: database busy']);
  });
});
