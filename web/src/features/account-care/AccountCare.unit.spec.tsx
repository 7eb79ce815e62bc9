// @vitest-environment jsdom
import assert from 'node:assert/strict';
import { cleanup, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, it, vi } from 'vitest';
import { resetToasts } from '../../components/toast/toast-store';
import AccountPage from '../../pages/AccountPage';
import { customer, fakeApi, json, renderPage } from '../../test/fake-api';
import ForgotPasswordPage from './ForgotPasswordPage';
import { VerifyEmailPage } from './LinkLandingPage';
import ResetPasswordPage from './ResetPasswordPage';

const RESET_SENT = 'If an account uses this address, we have sent it a link to choose a new password.';
const USED = 'This password reset link has expired or was already used. Ask for a new one from the sign-in page.';

beforeEach(() => {
  localStorage.clear();
  resetToasts();
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  window.history.replaceState(null, '', '/');
});

const bodyOf = (api: ReturnType<typeof fakeApi>, method: string, path: string) =>
  JSON.parse(api.calls(method, path)[0]?.body ?? 'null');

describe('a forgotten password', () => {
  it('asks for the link and shows the same answer whatever the address', async () => {
    const api = fakeApi({ 'POST /api/auth/forgot-password': json(202, { message: RESET_SENT }) });
    renderPage(<ForgotPasswordPage />, { path: '/auth/forgot-password' });
    await userEvent.click(screen.getByRole('button', { name: 'Send reset link' }));
    assert.match(screen.getByRole('alert').textContent ?? '', /Please enter the e-mail address/);
    await userEvent.type(screen.getByLabelText('Email'), 'ada@example.com');
    await userEvent.click(screen.getByRole('button', { name: 'Send reset link' }));
    await screen.findByText(RESET_SENT);
    assert.deepEqual(bodyOf(api, 'POST', '/api/auth/forgot-password'), { email: 'ada@example.com' });
  });

  it('takes the token from the link, then removes it from the address bar', async () => {
    window.history.replaceState(null, '', '/auth/reset-password#token=the-link-token');
    const api = fakeApi({
      'POST /api/auth/reset-password': json(200, {
        message: 'Your password has been changed. Please sign in with it.',
      }),
    });
    renderPage(<ResetPasswordPage />, { path: '/auth/reset-password' });
    assert.equal(window.location.hash, '', 'the token does not stay in the history');
    await userEvent.type(screen.getByLabelText('New password'), 'a new password');
    await userEvent.type(screen.getByLabelText('Repeat the new password'), 'another one');
    await userEvent.click(screen.getByRole('button', { name: 'Save new password' }));
    assert.match(screen.getByRole('alert').textContent ?? '', /not the same/);
    assert.equal(api.calls('POST', '/api/auth/reset-password').length, 0);
    await userEvent.clear(screen.getByLabelText('Repeat the new password'));
    await userEvent.type(screen.getByLabelText('Repeat the new password'), 'a new password');
    await userEvent.click(screen.getByRole('button', { name: 'Save new password' }));
    await screen.findByRole('heading', { name: 'Password changed' });
    assert.deepEqual(bodyOf(api, 'POST', '/api/auth/reset-password'), {
      token: 'the-link-token',
      password: 'a new password',
    });
    assert.equal(screen.getByRole('link', { name: 'Sign in' }).getAttribute('href'), '/auth?mode=signin');
  });

  it('a used link says so and offers a new one', async () => {
    window.history.replaceState(null, '', '/auth/reset-password#token=used');
    fakeApi({ 'POST /api/auth/reset-password': json(404, { detail: USED, message: USED, code: 'NOT_FOUND' }) });
    renderPage(<ResetPasswordPage />, { path: '/auth/reset-password' });
    await userEvent.type(screen.getByLabelText('New password'), 'a new password');
    await userEvent.type(screen.getByLabelText('Repeat the new password'), 'a new password');
    await userEvent.click(screen.getByRole('button', { name: 'Save new password' }));
    const alert = await screen.findByRole('alert');
    await within(alert).findByText(USED);
    assert.equal(
      within(alert).getByRole('link', { name: 'Ask for a new link' }).getAttribute('href'),
      '/auth/forgot-password',
    );
  });
});

describe('verifying an address', () => {
  it('uses the link once as the page opens', async () => {
    window.history.replaceState(null, '', '/auth/verify-email#token=welcome');
    const api = fakeApi({ 'POST /api/auth/verify-email': json(200, { message: 'Your e-mail address is verified.' }) });
    renderPage(<VerifyEmailPage />, { path: '/auth/verify-email' });
    await screen.findByText('Your e-mail address is verified.');
    screen.getByRole('heading', { name: 'E-mail address verified' });
    assert.equal(api.calls('POST', '/api/auth/verify-email').length, 1);
    assert.deepEqual(bodyOf(api, 'POST', '/api/auth/verify-email'), { token: 'welcome' });
  });
});

describe('/account: sign-in and security', () => {
  it('offers a new verification link while the address is not verified, and changes the password', async () => {
    localStorage.setItem('auth_token', 'customer-token');
    const api = fakeApi({
      'GET /api/auth/me': json(200, customer({ emailVerified: false })),
      'GET /api/subscription/status': json(200, { hasSubscription: false }),
      'POST /api/auth/verify-email/send': json(200, {
        sent: true,
        message: 'We have sent you a new link. It works for 24 hours.',
      }),
      'POST /api/auth/change-password': json(200, {
        access_token: 'the-new-token',
        token_type: 'bearer',
        user: customer(),
      }),
    });
    renderPage(<AccountPage />, { path: '/account' });
    const notice = await screen.findByTestId('verify-email-notice');
    await userEvent.click(within(notice).getByRole('button', { name: 'Send a new link' }));
    await within(notice).findByText('We have sent you a new link. It works for 24 hours.');

    const card = screen.getByRole('article', { name: 'Sign-in and Security' });
    await userEvent.type(within(card).getByLabelText('Current password'), 'the old one');
    await userEvent.type(within(card).getByLabelText('New password'), 'the new one!');
    await userEvent.click(within(card).getByRole('button', { name: 'Change password' }));
    await screen.findByText('Password changed');
    assert.deepEqual(bodyOf(api, 'POST', '/api/auth/change-password'), {
      current_password: 'the old one',
      new_password: 'the new one!',
    });
    assert.equal(localStorage.getItem('auth_token'), 'the-new-token', 'this session goes on with the new token');
  });
});

describe('/account: exporting my data', () => {
  it('asks for an export and says the link comes by e-mail', async () => {
    localStorage.setItem('auth_token', 'customer-token');
    const sent = 'We are putting your data together. We will e-mail you a link to download it (valid 7 days).';
    const api = fakeApi({
      'GET /api/auth/me': json(200, customer()),
      'GET /api/subscription/status': json(200, { hasSubscription: false }),
      'POST /api/auth/export': json(202, { message: sent, export_id: 'an-export' }),
    });
    renderPage(<AccountPage />, { path: '/account' });
    const card = await screen.findByRole('article', { name: 'Export my data' });
    await userEvent.click(within(card).getByRole('button', { name: 'Export my data' }));
    await within(card).findByText(sent);
    assert.equal(api.calls('POST', '/api/auth/export').length, 1);
  });
});
