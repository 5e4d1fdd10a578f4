import { useEffect, useRef } from 'react';

/**
 * Moves keyboard and screen-reader focus to a screen's heading when the screen (or `key`) changes, so a
 * person who pressed a button hears where they landed instead of being left on a button that is gone.
 */
export function useFocusHeading<T extends HTMLElement>(key: unknown) {
  const heading = useRef<T>(null);
  useEffect(() => {
    heading.current?.focus();
  }, [key]);
  return heading;
}
