// Quitting waits for Sift to close: running jobs pause where they can resume, the keys made for this run
// are revoked and the databases are closed, before the process ends. The first quit is held until then;
// the quit that follows goes through. A close that fails is told, and the app quits all the same.
import type { App } from 'electron';

type QuitEvent = { preventDefault(): void };
type QuittingApp = { on(event: 'before-quit', listener: (event: QuitEvent) => void): unknown } & Pick<App, 'quit'>;

export function quitAfterClose(
  app: QuittingApp,
  close: () => Promise<void>,
  log: (message: string, error: unknown) => void = (message, error) => console.error(message, error),
): void {
  let state: 'open' | 'closing' | 'closed' = 'open';
  app.on('before-quit', (event) => {
    if (state === 'closed') return;
    event.preventDefault();
    if (state === 'closing') return;
    state = 'closing';
    void close()
      .catch((error: unknown) => log('Sift could not close cleanly:', error))
      .finally(() => {
        state = 'closed';
        app.quit();
      });
  });
}
