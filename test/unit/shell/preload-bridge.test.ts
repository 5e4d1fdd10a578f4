// electron/preload.ts against a fake contextBridge: it exposes one named API built from the
// contract, and nothing that would let the page send on any channel it likes.
import { describe, expect, it, vi } from 'vitest';
import { callNames, eventNames } from '../../../electron/common/contract.ts';
import { listenerNameOf } from '../../../electron/common/sift-api.ts';
import { AppError } from '../../../electron/common/app-error.ts';

const exposed = new Map<string, unknown>();
const invocations: { channel: string; request: unknown }[] = [];
const ipcListeners = new Map<string, Set<(...args: unknown[]) => void>>();
const replies = new Map<string, unknown>();

vi.mock('electron', () => ({
  contextBridge: { exposeInMainWorld: (key: string, api: unknown) => void exposed.set(key, api) },
  ipcRenderer: {
    invoke: async (channel: string, request: unknown) => {
      invocations.push({ channel, request });
      return replies.get(channel);
    },
    on: (channel: string, listener: (...args: unknown[]) => void) => {
      const set = ipcListeners.get(channel) ?? new Set();
      set.add(listener);
      ipcListeners.set(channel, set);
    },
    removeListener: (channel: string, listener: (...args: unknown[]) => void) =>
      void ipcListeners.get(channel)?.delete(listener),
  },
  webUtils: { getPathForFile: (file: { name: string }) => `/home/user/${file.name}` },
}));

await import('../../../electron/preload.ts');
type AnyApi = Record<string, Record<string, (...args: unknown[]) => unknown>>;
const sift = exposed.get('sift') as AnyApi;

function expectedShape(): Record<string, string[]> {
  const shape: Record<string, string[]> = { files: ['stage', 'downloadLink'] };
  for (const name of callNames) (shape[name.split(':')[0]!] ??= []).push(name.split(':')[1]!);
  for (const name of eventNames) (shape[name.split(':')[0]!] ??= []).push(listenerNameOf(name));
  return shape;
}

describe('preload', () => {
  it('exposes only `sift`, with exactly the contract calls and events', () => {
    expect([...exposed.keys()]).toEqual(['sift']);
    const actual = Object.fromEntries(Object.entries(sift).map(([domain, api]) => [domain, Object.keys(api).sort()]));
    const expected = Object.fromEntries(
      Object.entries(expectedShape()).map(([domain, verbs]) => [domain, verbs.sort()]),
    );
    expect(actual).toEqual(expected);
    expect(
      Object.values(sift)
        .flatMap((api) => Object.values(api))
        .every((value) => typeof value === 'function'),
    ).toBe(true);
  });

  it('has no generic invoke, send or channel access', () => {
    const names = Object.values(sift).flatMap((api) => Object.keys(api));
    for (const forbidden of ['invoke', 'send', 'on', 'ipcRenderer', 'sendSync']) expect(names).not.toContain(forbidden);
  });

  it('sends a call on its own channel and unwraps the answer', async () => {
    replies.set('app:getInfo', { ok: true, value: { name: 'Sift', version: '1', transport: 'ipc' } });
    await expect(sift.app!.getInfo!()).resolves.toEqual({ name: 'Sift', version: '1', transport: 'ipc' });
    expect(invocations.at(-1)).toEqual({ channel: 'app:getInfo', request: {} });
  });

  it('turns an error answer into an AppError with its code', async () => {
    replies.set('lists:preview', { ok: false, error: { code: 'unreadable_file', message: '"x.csv" is empty.' } });
    const call = sift.lists!.preview!({ file: { kind: 'path', path: '/x.csv' } }) as Promise<unknown>;
    await expect(call).rejects.toBeInstanceOf(AppError);
    await expect(call).rejects.toMatchObject({ code: 'unreadable_file', message: '"x.csv" is empty.' });
  });

  it('gives listeners the payload only, never the IPC event, and unsubscribes', () => {
    const received: unknown[][] = [];
    const unsubscribe = sift.lists!.onDidPreview!((...args: unknown[]) => received.push(args)) as () => void;
    const fakeEvent = { sender: { send: () => {} }, ports: [] };
    for (const listener of ipcListeners.get('lists:didPreview')!)
      listener(fakeEvent, { fileName: 'a.csv', rowsShown: 3 });
    expect(received).toEqual([[{ fileName: 'a.csv', rowsShown: 3 }]]);
    unsubscribe();
    expect(ipcListeners.get('lists:didPreview')!.size).toBe(0);
  });

  it('stages a dropped file as its path', async () => {
    await expect(sift.files!.stage!({ name: 'list.csv' })).resolves.toEqual({
      kind: 'path',
      path: '/home/user/list.csv',
    });
  });
});
