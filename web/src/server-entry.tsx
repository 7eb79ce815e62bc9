// The build's prerendering entry (ADR 0714): web/build/prerender.ts builds this for Node after the
// client build and renders each public page with it. Never part of the browser's bundle.
import { prerenderToNodeStream } from 'react-dom/static';
import { StaticRouter } from 'react-router-dom';
import { createQueryClient } from './api/queries';
import { AppRoot } from './app/AppRoot';

/** The HTML of the app at `path`, as a visitor with no session sees it before any answer arrives. */
export async function renderPage(path: string): Promise<string> {
  // The browser's own cache settings, fresh per page. Nothing is fetched while rendering on the
  // server: what needs the API renders its loading state, as the browser's first render does, so
  // hydration finds the same markup.
  const queryClient = createQueryClient();
  // prerender (not renderToString) waits for every suspended part, so the page is whole.
  // Any error fails the build: React would otherwise leave that part to the browser, unannounced.
  const { prelude } = await prerenderToNodeStream(
    <AppRoot queryClient={queryClient} inRouter={(tree) => <StaticRouter location={path}>{tree}</StaticRouter>} />,
    {
      onError(error) {
        throw error;
      },
      // One document, nothing outlined: React would move a large part (the home page) out of place
      // behind inline scripts that reveal it, and the CSP allows no inline script.
      progressiveChunkSize: Number.POSITIVE_INFINITY,
    },
  );
  const chunks: Buffer[] = [];
  for await (const chunk of prelude) chunks.push(Buffer.from(chunk));
  // The cache's collection timers (gcTime) would hold the build's process open for minutes.
  queryClient.clear();
  return Buffer.concat(chunks).toString('utf8');
}
