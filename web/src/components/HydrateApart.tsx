import { type ReactNode, Suspense } from 'react';

/**
 * A part of a prerendered page that React hydrates apart from the rest (ADR 0717). React hydrates
 * each Suspense boundary in a pass of its own, with its own commit and effects, so a long public page
 * cut into parts is taken over in several short tasks rather than one long one (the total blocking
 * time on a phone). Nothing here suspends: the build rendered the part whole, and the browser keeps
 * that HTML until the part is hydrated, so the empty fallback is never shown.
 */
export function HydrateApart({ children }: { children: ReactNode }) {
  return <Suspense fallback={null}>{children}</Suspense>;
}
