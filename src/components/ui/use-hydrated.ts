'use client';
import * as React from 'react';

const noSubscription = () => () => {};

/**
 * False on the server and during hydration, true after: browser-only values (the page's origin,
 * random ids) render only then, so the server's HTML and the first client render agree (a
 * mismatch is React error #418).
 */
export function useHydrated(): boolean {
  return React.useSyncExternalStore(
    noSubscription,
    () => true,
    () => false,
  );
}
