import { type QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { type ReactNode, StrictMode } from 'react';
import { AuthProvider } from '../auth/AuthProvider';
import { HydrateApart } from '../components/HydrateApart';
import { DeferredToaster } from '../components/toast/DeferredToaster';
import { App } from './App';

/**
 * The whole app under its providers. The browser (main.tsx) gives it a BrowserRouter; the build's
 * prerendering (server-entry.tsx) a StaticRouter at the page's path: one tree, so what the browser
 * hydrates is what the build rendered (ADR 0714).
 */
export function AppRoot({
  queryClient,
  inRouter,
}: {
  queryClient: QueryClient;
  /** Puts the app inside the router: a BrowserRouter in the browser, a StaticRouter when prerendering. */
  inRouter: (app: ReactNode) => ReactNode;
}) {
  return (
    <StrictMode>
      <QueryClientProvider client={queryClient}>
        {inRouter(
          <AuthProvider>
            {/* The routes and the page's frame hydrate after the providers, in a task of their own (ADR 0719). */}
            <HydrateApart name="app">
              <App />
            </HydrateApart>
            <DeferredToaster />
          </AuthProvider>,
        )}
      </QueryClientProvider>
    </StrictMode>
  );
}
