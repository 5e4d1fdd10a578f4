// When Sift cannot start (its data folder unwritable, say), the person is told why in a dialog and the
// app quits cleanly, instead of a silent process with an unhandled rejection.
import type { App, Dialog } from 'electron';

export function reportStartupFailure(
  error: unknown,
  electron: { app: Pick<App, 'quit'>; dialog: Pick<Dialog, 'showErrorBox'> },
): void {
  const detail = error instanceof Error ? error.message : String(error);
  console.error('Sift could not start:', error);
  electron.dialog.showErrorBox('Sift could not start', `${detail}\n\nSift will close now.`);
  electron.app.quit();
}
