// The build's prerendering entry (ADR 0714): web/build/prerender.ts builds this for Node after the
// client build and renders each public page with it. Never part of the browser's bundle.
// It is built with the browser's aliases (ADR 0718): `react` is preact/compat here too, so the
// pages are rendered by Preact's renderer, whose markup Preact's `hydrate` takes over.
import type { VNode } from 'preact';
import { renderToStringAsync } from 'preact-render-to-string';
import { StaticRouter } from 'react-router-dom';
import { createQueryClient } from './api/queries';
import { AppRoot } from './app/AppRoot';

/** The HTML of the app at `path`, as a visitor with no session sees it before any answer arrives. */
export async function renderPage(path: string): Promise<string> {
  // The browser's own cache settings, fresh per page. Nothing is fetched while rendering on the
  // server: what needs the API renders its loading state, as the browser's first render does, so
  // hydration finds the same markup.
  const queryClient = createQueryClient();
  try {
    // The async renderer waits for every suspended part (a lazy component), so the page is whole,
    // in one document with no inline script. Any error rejects, and fails the build.
    // The element is React's type to TypeScript (the app is typed against React); at run time it
    // is a Preact vnode, made by the aliased JSX runtime.
    const tree = (
      <AppRoot queryClient={queryClient} inRouter={(tree) => <StaticRouter location={path}>{tree}</StaticRouter>} />
    ) as unknown as VNode;
    return await renderToStringAsync(tree);
  } finally {
    // The cache's collection timers (gcTime) would hold the build's process open for minutes.
    queryClient.clear();
  }
}
