// The contract over Electron IPC, main side: one handler per contract call, the sender checked
// and the argument parsed (by dispatch) before any logic runs.
import type { IpcMain, IpcMainInvokeEvent, WebContents } from 'electron';
import { callNames, type Envelope } from '../common/contract.ts';
import { failure, type Dispatch } from '../core/app/dispatch.ts';
import type { EventHub } from '../core/app/event-hub.ts';
import { isAppUrl } from './app-origin.ts';

/** Only Sift's own top-level page may call main; not a subframe, not a page navigated elsewhere. */
function isTrustedSender(event: Pick<IpcMainInvokeEvent, 'senderFrame'>): boolean {
  const frame = event.senderFrame;
  return frame != null && frame.parent === null && isAppUrl(frame.url);
}

export function registerContractHandlers(ipcMain: Pick<IpcMain, 'handle'>, dispatch: Dispatch): void {
  for (const name of callNames) {
    ipcMain.handle(name, async (event, request: unknown): Promise<Envelope<unknown>> => {
      if (!isTrustedSender(event)) return failure('forbidden', 'This page may not call Sift.');
      return dispatch(name, request, { transport: 'ipc' });
    });
  }
}

export function forwardEvents(
  events: EventHub,
  targets: () => Pick<WebContents, 'send' | 'isDestroyed'>[],
): () => void {
  return events.subscribe((name, payload) => {
    for (const target of targets()) if (!target.isDestroyed()) target.send(name, payload);
  });
}
