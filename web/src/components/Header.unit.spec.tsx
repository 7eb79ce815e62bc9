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
// keyboard (or a pointer) first reaches them, and the link that had the focus keeps it.
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
});
