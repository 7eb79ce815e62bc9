// @vitest-environment jsdom
// Each public page as the build prerendered it (web/dist, made by `npm test`'s build step before any
// test; server-entry.tsx rendered it in the build's own process: React's server and client
// renderers share context state, so they cannot take turns in one test), hydrated by the browser's tree
// (AppRoot under a BrowserRouter) in React's development build, which names every difference,
// attributes included; the production build the browser journeys run reports only markup that
// differs (ADR 0714). For a first visit, and for a returning visitor whose storage holds a session,
// a cookie choice and the intro seen: what storage says must wait until after hydration.
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { act } from '@testing-library/react';
import { hydrateRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router-dom';
import { afterEach, describe, it, vi } from 'vitest';
import { PUBLIC_PAGES, prerenderedFile } from '../../../gateway/src/web/public-pages';
import { createQueryClient } from '../api/queries';
import { INTRO_SEEN_KEY } from '../features/content/IntroVideo';
import { COOKIE_CHOICE_KEY } from '../lib/consent';
import { fakeApi } from '../test/fake-api';
import { AppRoot } from './AppRoot';

// The tests run from the repository's root (jsdom's import.meta.url is no file address).
const dist = resolve('web/dist');

/** What the build put inside the page's root element. */
async function prerendered(path: string): Promise<string> {
  const html = await readFile(join(dist, prerenderedFile(path)), 'utf8');
  const inner = html.match(/<div id="root">([\s\S]*)<\/div>\s*<link rel="stylesheet"/)?.[1];
  assert.ok(inner, `${path}: a rendered root in the build`);
  return inner;
}

const visitors: Record<string, () => void> = {
  'a first visit': () => {},
  'a returning visitor': () => {
    localStorage.setItem('auth_token', 'a-session-token');
    localStorage.setItem(COOKIE_CHOICE_KEY, 'accepted');
    localStorage.setItem(INTRO_SEEN_KEY, 'earlier');
  },
};

afterEach(() => {
  vi.restoreAllMocks();
  localStorage.clear();
  document.body.innerHTML = '';
});

describe('hydrating the prerendered public pages', () => {
  for (const [visitor, prepare] of Object.entries(visitors))
    for (const { path } of PUBLIC_PAGES)
      it(`${path}, ${visitor}: React takes the page over without a mismatch`, async () => {
        // No server here: every call answers 404 (what the page does with answers comes after hydration).
        fakeApi({});
        prepare();
        history.replaceState(null, '', path);
        const root = document.createElement('div');
        root.id = 'root';
        root.innerHTML = await prerendered(path);
        document.body.append(root);
        const problems: string[] = [];
        vi.spyOn(console, 'error').mockImplementation((...args: unknown[]) =>
          problems.push(args.map(String).join(' ')),
        );
        const app = hydrateRoot(
          root,
          <AppRoot queryClient={createQueryClient()} inRouter={(tree) => <BrowserRouter>{tree}</BrowserRouter>} />,
          { onRecoverableError: (error) => problems.push(`recoverable: ${String(error)}`) },
        );
        // Hydration commits within the act; effects (the session, the storage) follow in it.
        await act(async () => {});
        app.unmount();
        assert.deepEqual(
          problems.filter((p) => /hydrat|did(n't| not) match|recoverable/i.test(p)),
          [],
        );
      });
});
