// State a person edits that starts again from its source whenever the source changes: React's "adjusting
// some state when a prop changes", done while rendering rather than in an effect (an effect would render
// the stale value once, then again).
import { useState, type Dispatch, type SetStateAction } from 'react';

/** `initial` makes the state (from what it was, when it was something); it is made again whenever `key` changes. */
export function useStateResetBy<T>(initial: (previous?: T) => T, key: unknown): [T, Dispatch<SetStateAction<T>>] {
  const [state, setState] = useState(() => initial());
  const [seenKey, setSeenKey] = useState(key);
  if (!Object.is(seenKey, key)) {
    setSeenKey(key);
    setState(initial(state));
  }
  return [state, setState];
}
