// Runs before every test file (vitest.config.ts `setupFiles`); it matters to the web app's jsdom
// files. Testing Library's findBy* and waitFor give up after 1 s by default, which a busy machine can exceed
// while rendering a large page (a fresh-clone `npm test` failed that way): they are waits for the
// screen to settle, not timing assertions, so their ceiling is raised to 15 s. A real failure
// still fails, only later.
import { configure } from '@testing-library/dom';

configure({ asyncUtilTimeout: 15_000 });

// The unit project's files share one jsdom per worker (vitest.config.ts, scripts/test/fresh-file.ts):
// each file starts from an empty one, as it would in a process of its own.
if (typeof window !== 'undefined') {
  window.localStorage.clear();
  window.sessionStorage.clear();
  for (const cookie of document.cookie.split(';')) {
    const name = cookie.split('=')[0]?.trim();
    // biome-ignore lint/suspicious/noDocumentCookie: jsdom has no Cookie Store API; expiring is the one way to remove a cookie
    if (name) document.cookie = `${name}=; expires=Thu, 01 Jan 1970 00:00:00 GMT; path=/`;
  }
  document.head.replaceChildren();
  document.body.replaceChildren();
  for (const { name } of [...document.documentElement.attributes]) document.documentElement.removeAttribute(name);
  for (const { name } of [...document.body.attributes]) document.body.removeAttribute(name);
  window.history.replaceState(null, '', '/');
}
