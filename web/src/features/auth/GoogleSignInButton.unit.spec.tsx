// @vitest-environment jsdom
// Google sign-in where the deployment has no Google client id (the browser journeys' product has
// one, so this state is checked here): the button is there, disabled, and says why.
import assert from 'node:assert/strict';
import { act, cleanup, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, it, vi } from 'vitest';
import AuthPage from '../../pages/AuthPage';
import { loadWebConfig } from '../../lib/runtime-config';
import { fakeApi, json, renderPage } from '../../test/fake-api';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('Continue with Google without a client id', () => {
  it('is disabled, with the note that Google sign-in is not configured', async () => {
    const api = fakeApi({
      'GET /api/config': json(200, {
        google_client_id: null,
        support_email: null,
        pixels: { meta: null, tiktok: null },
      }),
    });
    renderPage(<AuthPage />, { path: '/auth', at: '/auth' });
    // The deployment's answer has arrived (before it, the button waits in the same state).
    await waitFor(() => assert.equal(api.calls('GET', '/api/config').length, 1));
    await act(async () => {
      await loadWebConfig();
    });
    const note = await screen.findByText(/Google sign-in is not configured on this server/);
    const button = screen.getByRole('button', { name: /Continue with Google/ });
    assert.equal((button as HTMLButtonElement).disabled, true);
    assert.equal(button.getAttribute('aria-describedby'), note.id);
  });
});
