// @vitest-environment jsdom
import assert from 'node:assert/strict';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, it, vi } from 'vitest';
import { resetToasts } from '../../components/toast/toast-store';
import SettingsPage from '../../pages/SettingsPage';
import { fakeApi, json, renderPage } from '../../test/fake-api';
import { ADMIN_TOKEN_KEY } from '../admin/admin-session';
import { changedKeys, isMasked, keysOf, normaliseConfig, normaliseStatus, serviceOf } from './settings-model';

const config = {
  gemini_api_key: '••••••••abcd',
  stripe_public_key: 'pk_test_123',
  stripe_lite_price_id: 'price_lite',
  stripe_pro_price_id: '',
  stripe_studio_price_id: 'price_studio',
  stripe_agency_price_id: null,
};
const status = [
  { key: 'gemini_api_key', status: 'active' },
  { key: 'stripe_public_key', status: 'invalid' },
  { key: 'stripe_lite_price_id', status: 'inactive' },
];

const routes = (over: Parameters<typeof fakeApi>[0] = {}) => ({
  'GET /api/settings/config': json(200, config),
  'GET /api/settings/keys/status': json(200, status),
  ...over,
});

beforeEach(() => {
  localStorage.clear();
  localStorage.setItem(ADMIN_TOKEN_KEY, 'adm-1');
  resetToasts();
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const show = () => renderPage(<SettingsPage />, { path: '/settings' });

describe('the settings model', () => {
  it('reads the config in any envelope and knows a masked secret', () => {
    assert.deepEqual(normaliseConfig({ keys: { a_api_key: '****wxyz', stripe_public_key: null } }), {
      a_api_key: '****wxyz',
      stripe_public_key: '',
    });
    assert.deepEqual(normaliseConfig([{ key: 'x', value: 'y' }]), { x: 'y' });
    assert.deepEqual(normaliseConfig({ stripe_public_key: { value: 'pk' } }), { stripe_public_key: 'pk' });
    assert.equal(isMasked('••••••••abcd'), true);
    assert.equal(isMasked('****abcd'), true);
    assert.equal(isMasked('sk_live_abcd'), false);
    assert.equal(isMasked('price_123'), false);
  });
  it('names the provider key from the server, the test service from the key, and what changed', () => {
    const statuses = normaliseStatus([{ key: 'gemini_api_key', status: 'weird' }]);
    assert.equal(statuses.get('gemini_api_key'), 'unknown');
    assert.deepEqual(keysOf({}, statuses).apiKeys, ['gemini_api_key']);
    assert.deepEqual(keysOf({}, new Map()).apiKeys, ['flatlay_api_key']);
    assert.deepEqual([serviceOf('gemini_api_key'), serviceOf('stripe_public_key')], ['gemini', 'stripe']);
    assert.deepEqual(changedKeys({ a: '1', b: '2' }, { a: '1', b: '3', c: '' }), ['b']);
  });
});

describe('/settings', () => {
  it('tells anyone without an admin session that settings are for administrators only', async () => {
    localStorage.clear();
    const api = fakeApi(routes());
    show();
    screen.getByRole('heading', { name: 'Settings are for administrators only' });
    await userEvent.click(screen.getByRole('button', { name: 'Administrator Sign In' }));
    screen.getByRole('dialog', { name: 'Admin Authentication' });
    assert.deepEqual(
      api.sent.map((r) => `${r.method} ${r.url.pathname}`),
      [],
    );
  });

  it('falls back to that state when the server refuses the admin session', async () => {
    fakeApi(routes({ 'GET /api/settings/config': json(403, { detail: 'Admin authentication required' }) }));
    show();
    await screen.findByRole('heading', { name: 'Settings are for administrators only' });
    assert.equal(localStorage.getItem(ADMIN_TOKEN_KEY), null);
  });

  it('shows the provider key masked with its status, and the payment keys with their labels', async () => {
    const api = fakeApi(routes());
    show();
    const key = await screen.findByLabelText('Gemini API Key');
    assert.equal((key as HTMLInputElement).value, '••••••••abcd');
    screen.getByText('Saved and hidden; type a new value to replace it.');
    assert.ok(screen.getByText('active').className.includes('key-status--active'));
    assert.equal(api.sent[0]?.headers.get('Authorization'), 'Bearer adm-1');
    await userEvent.click(screen.getByRole('tab', { name: 'Payment Configuration' }));
    const panel = screen.getByRole('tabpanel');
    assert.equal((within(panel).getByLabelText('Stripe Publishable Key') as HTMLInputElement).value, 'pk_test_123');
    within(panel).getByText('invalid');
    within(panel).getByText('inactive');
    for (const label of [
      'Lite Plan Price ID ($19/month)',
      'Pro Plan Price ID ($39/month)',
      'Studio Plan Price ID ($79/month)',
      'Agency Plan Price ID ($149/month)',
    ])
      within(panel).getByLabelText(label);
    assert.equal(within(panel).getAllByText('unknown').length, 3);
    assert.equal(screen.queryByRole('region', { name: 'Unsaved changes' }), null);
  });

  it('shows the unsaved-changes bar once a value changes, and Cancel puts every value back', async () => {
    fakeApi(routes());
    show();
    const key = await screen.findByLabelText('Gemini API Key');
    fireEvent.change(key, { target: { value: 'AIza-new-key' } });
    const bar = screen.getByRole('region', { name: 'Unsaved changes' });
    within(bar).getByText('You have unsaved changes');
    await userEvent.click(within(bar).getByRole('button', { name: 'Cancel' }));
    assert.equal(screen.queryByRole('region', { name: 'Unsaved changes' }), null);
    assert.equal((screen.getByLabelText('Gemini API Key') as HTMLInputElement).value, '••••••••abcd');
    // Typing the saved value back is not a change.
    fireEvent.change(screen.getByLabelText('Gemini API Key'), { target: { value: '••••••••abcd' } });
    assert.equal(screen.queryByRole('region', { name: 'Unsaved changes' }), null);
  });

  it('saves every value, the untouched masked secret as it is (the server keeps it)', async () => {
    let saved = { ...config };
    const api = fakeApi(
      routes({
        'GET /api/settings/config': () => json(200, saved),
        'POST /api/settings/keys': ({ body }) => {
          saved = { ...saved, ...JSON.parse(body) };
          return json(200, { message: 'Settings updated' });
        },
      }),
    );
    show();
    await userEvent.click(await screen.findByRole('tab', { name: 'Payment Configuration' }));
    const lite = screen.getByLabelText('Lite Plan Price ID ($19/month)');
    await userEvent.clear(lite);
    await userEvent.type(lite, 'price_lite_2');
    await userEvent.click(screen.getByRole('button', { name: 'Save Changes' }));
    await screen.findByText('Settings saved');
    const body = JSON.parse(api.calls('POST', '/api/settings/keys')[0]!.body);
    assert.equal(body.gemini_api_key, '••••••••abcd');
    assert.equal(body.stripe_lite_price_id, 'price_lite_2');
    assert.equal(body.stripe_public_key, 'pk_test_123');
    await waitFor(() => assert.equal(screen.queryByRole('region', { name: 'Unsaved changes' }), null));
    assert.equal((screen.getByLabelText('Lite Plan Price ID ($19/month)') as HTMLInputElement).value, 'price_lite_2');
  });

  it("says 'Failed to save API keys' when the save is refused, and keeps the changes", async () => {
    fakeApi(routes({ 'POST /api/settings/keys': json(400, { detail: 'gemini_api_key is too short' }) }));
    show();
    fireEvent.change(await screen.findByLabelText('Gemini API Key'), { target: { value: 'x' } });
    await userEvent.click(screen.getByRole('button', { name: 'Save Changes' }));
    await screen.findByText('Failed to save API keys');
    screen.getByText('gemini_api_key is too short');
    screen.getByRole('region', { name: 'Unsaved changes' });
  });

  it('disables Test for an empty key and reports the outcome of a test', async () => {
    let works = false;
    const api = fakeApi(
      routes({
        'POST /api/settings/test/gemini': () =>
          json(
            200,
            works
              ? { success: true, message: 'Gemini answered: 12 models' }
              : { success: false, message: 'API key not valid' },
          ),
      }),
    );
    show();
    const test = await screen.findByRole('button', { name: 'Test Gemini API Key' });
    await userEvent.click(test);
    await screen.findByText('Connection failed');
    screen.getByText('API key not valid');
    works = true;
    await userEvent.click(test);
    await screen.findByText('Connection successful');
    screen.getByText('Gemini answered: 12 models');
    assert.equal(api.calls('POST', '/api/settings/test/gemini').length, 2);
    fireEvent.change(screen.getByLabelText('Gemini API Key'), { target: { value: '' } });
    assert.equal(screen.getByRole('button', { name: 'Test Gemini API Key' }).hasAttribute('disabled'), true);
  });

  it("says 'Connection failed' when the test call itself fails", async () => {
    fakeApi(routes({ 'POST /api/settings/test/gemini': json(502, { detail: 'provider did not answer' }) }));
    show();
    await userEvent.click(await screen.findByRole('button', { name: 'Test Gemini API Key' }));
    await screen.findByText('Connection failed');
    screen.getByText('provider did not answer');
  });
});
