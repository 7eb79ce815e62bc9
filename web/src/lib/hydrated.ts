import { useSyncExternalStore } from 'react';

const never = () => () => {};

/**
 * false while React hydrates a prerendered page (and on the build's render), true from then on and
 * on every render from nothing. What depends on this browser (storage, media queries, settings read
 * from the page) renders only when it is true, so hydration meets exactly the build's markup
 * (ADR 0714): React takes the server snapshot while hydrating, then renders again with the client's.
 */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    never,
    () => true,
    () => false,
  );
}
