// @vitest-environment jsdom
// The 18+ consent line on every way of creating an account, and the version it sends with the
// request, so the server can record it (ADR 0804).
import assert from 'node:assert/strict';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, it, vi } from 'vitest';
import { resetToasts } from '../../components/toast/toast-store';
import { SIGN_UP_CONSENT_VERSION } from '../../lib/consent';
import type { PixelEvent } from '../../lib/pixels';
import AuthPage from '../../pages/AuthPage';
import { customer, fakeApi, json, renderPage } from '../../test/fake-api';
import { InlineSignIn } from '../account/InlineSignIn';

const tracked = vi.hoisted(() => [] as PixelEvent[]);
vi.mock('../../lib/pixels', () => ({ trackPixel: (e: PixelEvent) => void tracked.push(e) }));
vi.mock('../../auth/google-identity', () => ({ requestGoogleCredential: async () => 'google.id.token' }));

const LINE = /confirm that you are at least 18 years old/;
const session = (user = customer()) => json(201, { access_token: 'fresh', token_type: 'bearer', user });
const config = json(200, {
  google_client_id: 'client.apps.googleusercontent.com',
  support_email: null,
  pixels: { meta: null, tiktok: null },
});

beforeEach(() => {
  localStorage.clear();
  resetToasts();
  tracked.length = 0;
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('the sign-up consent line', () => {
  it("the Free card's sign-up (/auth?mode=signup) shows it and sends its version", async () => {
    const api = fakeApi({ 'POST /api/auth/register': session(), 'GET /api/config': config });
    renderPage(<AuthPage />, { path: '/auth', at: '/auth?mode=signup' });
    const form = await screen.findByRole('heading', { name: 'Create your account' });
    screen.getByText(LINE);
    await userEvent.type(screen.getByLabelText('Email'), 'ada@example.com');
    await userEvent.type(screen.getByLabelText('Password'), 'correct horse battery');
    await userEvent.click(screen.getByRole('button', { name: 'Create Account' }));
    await waitFor(() => assert.equal(api.calls('POST', '/api/auth/register').length, 1));
    assert.deepEqual(JSON.parse(api.calls('POST', '/api/auth/register')[0]!.body), {
      email: 'ada@example.com',
      password: 'correct horse battery',
      consent_version: SIGN_UP_CONSENT_VERSION,
    });
    assert.ok(form);
  });

  it('the e-mail sign-in form has no consent line (no account is created there)', async () => {
    fakeApi({ 'GET /api/config': config });
    renderPage(<AuthPage />, { path: '/auth' });
    await userEvent.click(await screen.findByRole('button', { name: 'Sign In' }));
    await screen.findByRole('heading', { name: 'Welcome back' });
    assert.equal(screen.queryByText(LINE), null);
  });

  it("/subscribe's inline sign-up shows it and sends its version; its sign-up is tracked", async () => {
    const api = fakeApi({ 'POST /api/auth/register': session() });
    renderPage(<InlineSignIn />);
    assert.equal(screen.queryByText(LINE), null, 'not while signing in');
    await userEvent.click(screen.getByRole('button', { name: 'Create a new account' }));
    const form = screen.getByRole('form', { name: 'Create an account to subscribe' });
    within(form).getByText(LINE);
    await userEvent.type(screen.getByLabelText('Email'), 'ada@example.com');
    await userEvent.type(screen.getByLabelText('Password'), 'correct horse battery');
    await userEvent.click(screen.getByRole('button', { name: 'Create Account' }));
    await waitFor(() => assert.deepEqual(tracked, ['CompleteRegistration']));
    assert.equal(JSON.parse(api.calls('POST', '/api/auth/register')[0]!.body).consent_version, SIGN_UP_CONSENT_VERSION);
  });

  it('Continue with Google sits beside it, sends its version, and a new account counts as a sign-up', async () => {
    const fresh = customer({ id: 'new-google-user', createdAt: new Date().toISOString() });
    const api = fakeApi({
      'GET /api/config': config,
      'POST /api/auth/google': json(200, { access_token: 'fresh', token_type: 'bearer', user: fresh }),
    });
    renderPage(<AuthPage />, { path: '/auth' });
    const google = await screen.findByRole('button', { name: /Continue with Google/ });
    screen.getByText(LINE);
    await userEvent.click(google);
    await waitFor(() => assert.deepEqual(tracked, ['CompleteRegistration']));
    assert.deepEqual(JSON.parse(api.calls('POST', '/api/auth/google')[0]!.body), {
      idToken: 'google.id.token',
      consent_version: SIGN_UP_CONSENT_VERSION,
    });
  });

  it('a Google sign-in to an account made earlier is not a sign-up', async () => {
    fakeApi({
      'GET /api/config': config,
      'POST /api/auth/google': json(200, { access_token: 'fresh', token_type: 'bearer', user: customer() }),
    });
    renderPage(<AuthPage />, { path: '/auth' });
    await userEvent.click(await screen.findByRole('button', { name: /Continue with Google/ }));
    await waitFor(() => assert.equal(localStorage.getItem('auth_token'), 'fresh'));
    assert.deepEqual(tracked, []);
  });
});
