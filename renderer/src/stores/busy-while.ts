// How a store runs a change a person asked for: busy while it runs (buttons wait), a failure shown as the
// store's error in words, never thrown at the screen.
import { errorMessage } from '../bridge.ts';

type BusyState = { busy: boolean; error?: string | undefined };

/**
 * A runner for the store `set` writes to; `clear` is what else a new change wipes (an old notice, the
 * last answer). It answers whether the change went through.
 */
export function busyWhileIn<S extends BusyState>(set: (partial: Partial<S>) => void, clear: Partial<S> = {}) {
  return async (work: () => Promise<void>): Promise<boolean> => {
    set({ busy: true, error: undefined, ...clear } as Partial<S>);
    try {
      await work();
      return true;
    } catch (error) {
      set({ error: errorMessage(error) } as Partial<S>);
      return false;
    } finally {
      set({ busy: false } as Partial<S>);
    }
  };
}
