// Light, dark or the system's, as chosen in Settings, for the whole desktop app: nativeTheme's source
// decides what the window's pages see as prefers-color-scheme, and the menus and dialogs follow it too.
import type { NativeTheme } from 'electron';
import type { EventPayload } from '../common/contract.ts';
import type { AppRuntime } from '../core/app/app-runtime.ts';

type Runtime = Pick<AppRuntime, 'dispatch' | 'events'>;

/** The window's colour before its page has painted, so a dark app does not flash white. */
export const windowBackground = (dark: boolean) => (dark ? '#111418' : '#f6f7f9');

export async function followAppearance(
  nativeTheme: Pick<NativeTheme, 'themeSource'>,
  runtime: Runtime,
): Promise<() => void> {
  const saved = await runtime.dispatch('settings:get', {}, { transport: 'ipc' });
  if (saved.ok) nativeTheme.themeSource = (saved.value as EventPayload<'settings:didChangeAppearance'>).appearance;
  return runtime.events.subscribe((name, payload) => {
    if (name === 'settings:didChangeAppearance') {
      nativeTheme.themeSource = (payload as EventPayload<'settings:didChangeAppearance'>).appearance;
    }
  });
}
