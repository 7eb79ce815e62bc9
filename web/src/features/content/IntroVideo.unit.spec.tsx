// @vitest-environment jsdom
import assert from 'node:assert/strict';
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, it, vi } from 'vitest';
import { INTRO_SEEN_KEY, IntroVideo } from './IntroVideo';

beforeEach(() => localStorage.clear());
afterEach(cleanup);

// Issue 28, item 9: the intro plays on the first visit only, after the page has loaded, with Skip.
describe('the intro video', () => {
  it('opens once the page has loaded on a first visit, with the showcase video and its captions, and Skip closes it', async () => {
    render(<IntroVideo />);
    const dialog = await screen.findByRole('dialog', { name: 'Flatlay in 15 seconds' });
    const video = dialog.querySelector('video');
    assert.equal(video?.getAttribute('src'), '/intro/intro.webm');
    assert.equal(video?.getAttribute('preload'), 'none');
    assert.equal(video?.querySelector('track[kind="captions"]')?.getAttribute('src'), '/intro/intro.vtt');
    const skip = screen.getByRole('button', { name: 'Skip' });
    await waitFor(() => assert.equal(document.activeElement, skip));
    assert.ok(localStorage.getItem(INTRO_SEEN_KEY), 'remembered as soon as it is shown');
    fireEvent.click(skip);
    assert.equal(screen.queryByRole('dialog'), null);
  });

  it('is not shown again once seen', () => {
    localStorage.setItem(INTRO_SEEN_KEY, '2026-11-27T00:00:00.000Z');
    vi.useFakeTimers();
    try {
      render(<IntroVideo />);
      // Whatever it would have waited for has passed.
      act(() => vi.runAllTimers());
      assert.equal(screen.queryByRole('dialog'), null);
    } finally {
      vi.useRealTimers();
    }
  });

  it('closes on Escape and when the video ends', async () => {
    render(<IntroVideo />);
    await screen.findByRole('dialog');
    // The Escape listener is attached by the same effect that focuses Skip, after the dialog's first
    // paint: on a busy machine that effect may not have run yet when the dialog is found.
    const skip = screen.getByRole('button', { name: 'Skip' });
    await waitFor(() => assert.equal(document.activeElement, skip));
    fireEvent.keyDown(window, { key: 'Escape' });
    assert.equal(screen.queryByRole('dialog'), null);
    cleanup();
    localStorage.clear();
    render(<IntroVideo />);
    const dialog = await screen.findByRole('dialog');
    fireEvent.ended(dialog.querySelector('video')!);
    assert.equal(screen.queryByRole('dialog'), null);
  });
});
