// Component tests' stand-in for /api: answers by method and path, records every request, and
// renders a page with the app's providers (query client, router, auth, toasts).
import { type QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import type { ReactNode } from 'react';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router-dom';
import { afterEach, vi } from 'vitest';
import { createQueryClient } from '../api/queries';
import { AuthProvider } from '../auth/AuthProvider';
import { Toaster } from '../components/toast/Toaster';

export const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

export interface SentRequest {
  method: string;
  path: string;
  url: URL;
  headers: Headers;
  body: string;
}

type Handler = (request: SentRequest) => Response | Promise<Response>;

/** Routes "METHOD /path" to a handler (or a fixed answer); anything else is a 404. */
export function fakeApi(routes: Record<string, Handler | Response | (() => Response)>) {
  const sent: SentRequest[] = [];
  const fetch = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const request = input instanceof Request ? input : new Request(new URL(String(input), location.href), init);
    const url = new URL(request.url);
    const entry: SentRequest = {
      method: request.method,
      path: url.pathname,
      url,
      headers: request.headers,
      body: request.body ? await request.text() : '',
    };
    sent.push(entry);
    const route = routes[`${request.method} ${url.pathname}`];
    if (!route) return json(404, { detail: `no fake for ${request.method} ${url.pathname}` });
    if (route instanceof Response) return route.clone();
    return route(entry);
  });
  vi.stubGlobal('fetch', fetch);
  return {
    sent,
    calls: (method: string, path: string) => sent.filter((r) => r.method === method && r.path === path),
  };
}

function Where() {
  const location = useLocation();
  return <output data-testid="location">{location.pathname + location.search}</output>;
}

// Each file's query clients are emptied after each test: a query that failed and waits to retry (the
// admin's queries retry three times, 1-4 s apart) would otherwise fetch through the next test's, or
// the next file's, fake (the unit files share a process, ADR 0310): a settings test once saw four
// requests it never made. Emptying a client cancels its queries' pending retries.
const clients = new Set<QueryClient>();
afterEach(() => {
  for (const client of clients) client.clear();
  clients.clear();
});

/** Renders `element` at `path` with every provider the app has, plus a probe of where it is. */
export function renderPage(element: ReactNode, options: { path?: string; at?: string } = {}) {
  const client = createQueryClient();
  clients.add(client);
  const path = options.path ?? '/';
  const utils = render(
    <QueryClientProvider client={client}>
      <MemoryRouter initialEntries={[options.at ?? path]}>
        <AuthProvider>
          <Routes>
            <Route path={path} element={element} />
            <Route path="*" element={<p>elsewhere</p>} />
          </Routes>
          <Where />
          <Toaster />
        </AuthProvider>
      </MemoryRouter>
    </QueryClientProvider>,
  );
  return { ...utils, client };
}

export const currentLocation = () => document.querySelector('[data-testid="location"]')?.textContent ?? '';

/** A signed-in customer's profile as GET /api/auth/me answers it. */
export function customer(over: Record<string, unknown> = {}) {
  return {
    id: '4d3c2b1a-0000-4000-8000-000000000001',
    email: 'ada@example.com',
    tokenBalance: 1200,
    firstName: 'Ada',
    lastName: 'Lovelace',
    name: 'Ada Lovelace',
    avatarUrl: null,
    stripeCustomerId: null,
    stripeSubscriptionId: null,
    subscriptionPlan: 'none',
    subscriptionStatus: null,
    subscriptionPlanName: null,
    subscriptionPeriodEnd: null,
    isUnlimited: false,
    emailVerified: true,
    role: 'user',
    createdAt: '2026-01-01T00:00:00Z',
    ...over,
  };
}
