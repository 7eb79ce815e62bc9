import { type ReactNode, Suspense, useLayoutEffect, useState } from 'react';
import { endHydrating, resumeHydrating, waitForTurn } from '../lib/hydrated';

/**
 * A part of a prerendered page that is hydrated apart from the rest, in a task of its own (ADR 0719),
 * so a page is taken over in several short tasks rather than one long one (the total blocking time
 * on a phone); a part further down the page waits until it comes near the viewport or the visitor's
 * input lands in it (ADR 0720). Its content must be one element: that is what the page keeps while
 * the part waits. An empty `<template>` before it, named `name` (unique in the page), tells where
 * that element is.
 *
 * On Preact (the production build, ADR 0718), while main.tsx hydrates a page in parts, the part
 * suspends until its turn (`waitForTurn`): Preact keeps a part that suspends while hydrating as the
 * build rendered it, and hydrates it when the promise settles. Rendered from nothing (a page reached
 * in the app, the component tests on React), nothing waits. React would hydrate a Suspense boundary
 * in a pass of its own by itself (ADR 0717).
 */
export function HydrateApart({ name, children }: { name: string; children: ReactNode }) {
  return (
    <>
      <template data-part={name} />
      <Suspense fallback={null}>
        <Part name={name}>{children}</Part>
      </Suspense>
    </>
  );
}

function Part({ name, children }: { name: string; children: ReactNode }) {
  // Decided on the first render only: a part rendered while a page is hydrated in parts waits.
  const [part] = useState(() => waitForTurn(name));
  if (part && !part.settled) throw part.turn;
  // Its turn: the content is hydrated now, with the stores' server snapshots, as in the first pass.
  const resumed = Boolean(part && !part.hydrated);
  if (part && resumed) {
    part.hydrated = true;
    resumeHydrating();
  }
  return (
    <>
      {children}
      <PartEnd resumed={resumed} />
    </>
  );
}

/**
 * Mounted after the part's content: when that was the part's hydration, it is over once the content's
 * layout effects have run (Preact's `useSyncExternalStore` compares its snapshot in one, and would
 * render the client's at once).
 */
function PartEnd({ resumed }: { resumed: boolean }) {
  useLayoutEffect(() => {
    if (resumed) endHydrating();
  }, [resumed]);
  return null;
}
