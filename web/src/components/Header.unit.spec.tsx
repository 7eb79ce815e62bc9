// @vitest-environment jsdom
import assert from 'node:assert/strict';
import { act, cleanup, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, it, vi } from 'vitest';
import { fakeApi, json, renderPage } from '../test/fake-api';
import { Header } from './Header';

beforeEach(() => {
  localStorage.clear();
  fakeApi({ 'GET /api/config': json(200, { google_client_id: null, support_email: null, pixels: {} }) });
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

// Issue 31: Radix's tooltip is not loaded with the page; the icon links get their tooltips when the
// keyboard first reaches them (the link that had the focus keeps it), or once the page has loaded
// where a mouse can hover: never on a phone, which shows no tooltip (ADR 0719).
describe("the header's icon links", () => {
  it('are plain links first, then get their tooltips on the first focus, keeping that focus', async () => {
    renderPage(<Header />);
    const icons = () => document.querySelectorAll('.site-header__mobile a.icon-button');
    assert.equal(icons().length, 2);
    // Radix marks its triggers with data-state; a plain link has none.
    assert.ok([...icons()].every((a) => !a.hasAttribute('data-state')));

    const iconLink = icons()[0] as HTMLAnchorElement;
    assert.equal(iconLink.getAttribute('aria-label'), 'Dashboard');
    act(() => iconLink.focus());
    await waitFor(() => assert.ok([...icons()].every((a) => a.hasAttribute('data-state'))));
    const after = icons()[0] as HTMLAnchorElement;
    assert.notEqual(after, iconLink, 'the tooltip version is a new element');
    assert.equal(document.activeElement, after, 'and it has the focus the plain link had');
    // Focus opens Radix's tooltip at once: the label is there for the keyboard's user.
    await screen.findByRole('tooltip', { name: 'Dashboard' });
  });

  for (const [device, hovers] of [
    ['with a mouse', true],
    ['on a phone', false],
  ] as const)
    it(`${device}, ${hovers ? 'get' : 'do not get'} their tooltips once the page has loaded`, async () => {
      vi.stubGlobal('matchMedia', (query: string) => ({
        matches: hovers && query === '(hover: hover) and (pointer: fine)',
        media: query,
        addEventListener: () => {},
        removeEventListener: () => {},
      }));
      const idle: Array<() => void> = [];
      vi.stubGlobal('requestIdleCallback', (run: () => void) => idle.push(run));
      vi.stubGlobal('cancelIdleCallback', () => {});
      renderPage(<Header />);
      const icons = () => [...document.querySelectorAll('.site-header__mobile a.icon-button')];
      assert.equal(icons().length, 2);
      // The page has loaded (jsdom's document is complete): the tooltips wait for the browser's idle time.
      await waitFor(() => assert.equal(idle.length, hovers ? 1 : 0));
      await act(async () => {
        for (const run of idle) run();
      });
      if (hovers) await waitFor(() => assert.ok(icons().every((a) => a.hasAttribute('data-state'))));
      else assert.ok(!icons().some((a) => a.hasAttribute('data-state')), 'a phone loads no tooltip');
    });
});
