import { useSyncExternalStore } from 'react';

/** True only while main.tsx hydrates a prerendered page (see `whileHydrating`). */
let hydrating = false;

/**
 * Runs `hydrate` (main.tsx's `hydrateRoot` of a prerendered page) as the time when every store read
 * through `useStore` answers its server snapshot. The production build runs on Preact (ADR 0718),
 * whose `useSyncExternalStore` has no server snapshot: it would read this browser's storage while
 * taking over the build's markup, and render other markup than the build's (a cookie banner, the
 * /auth form of `?mode=signup`), which Preact patches silently, keeping the reused elements' old
 * attributes. Preact hydrates synchronously, inside this call; React (the component tests) hydrates
 * later and takes the server snapshot itself, so for it this changes nothing.
 */
export function whileHydrating(hydrate: () => void): void {
  hydrating = true;
  try {
    hydrate();
  } finally {
    hydrating = false;
  }
}

/**
 * `useSyncExternalStore` whose server snapshot is also the one taken while hydrating, on React and on
 * Preact alike: the build's render and the hydration see the server snapshot, every later render
 * (and a render from nothing) the client's. After hydration the store hook finds the snapshot
 * changed (Preact checks it in an effect; React renders again) and renders the client's.
 */
export function useStore<T>(subscribe: (onChange: () => void) => () => void, client: () => T, server: () => T): T {
  return useSyncExternalStore(subscribe, () => (hydrating ? server() : client()), server);
}

const never = () => () => {};

/**
 * false while a prerendered page is hydrated (and on the build's render), true from then on and on
 * every render from nothing. What depends on this browser (storage, media queries, settings read
 * from the page) renders only when it is true, so hydration meets exactly the build's markup
 * (ADR 0714, ADR 0718).
 */
export function useHydrated(): boolean {
  return useStore(
    never,
    () => true,
    () => false,
  );
}
