// @vitest-environment jsdom
// The cookie banner in front of the marketing pixels, with a pixel configured the way a deployment
// does it (GET /api/config). The steps share one page load (the settings and a started pixel are
// once per load), so they run in order: no choice, reject, the footer's settings, accept.
import assert from 'node:assert/strict';
import { cleanup, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { fakeApi, json, renderPage } from '../test/fake-api';
import { COOKIE_CHOICE_KEY } from '../lib/consent';
import { trackPixel } from '../lib/pixels';
import { CookieBanner } from './CookieBanner';
import { Footer } from './Footer';

const scripts = () => [...document.querySelectorAll('script')].map((s) => s.src);
const page = () =>
  renderPage(
    <>
      <p>page</p>
      <Footer />
      <CookieBanner />
    </>,
  );
const banner = () => screen.queryByRole('region', { name: 'Cookies for marketing' });
/** Lets pending promise callbacks (the settings' answer, a tracked event) run. */
const settle = () => new Promise((ok) => setTimeout(ok, 0));

beforeAll(() => {
  localStorage.clear();
  fakeApi({
    'GET /api/config': json(200, {
      google_client_id: null,
      support_email: null,
      pixels: { meta: '1234567890', tiktok: null },
    }),
  });
});
afterAll(() => {
  cleanup();
  for (const s of document.querySelectorAll('script')) s.remove();
  delete window.fbq;
});

describe('the cookie banner and the pixels behind it', () => {
  it('asks before anything loads: Accept and Reject side by side, with the same weight', async () => {
    page();
    await waitFor(() => assert.ok(banner(), 'the banner shows once the settings name a pixel'));
    const accept = screen.getByRole('button', { name: 'Accept' });
    const reject = screen.getByRole('button', { name: 'Reject' });
    assert.equal(accept.className, reject.className, 'the same button style');
    assert.equal(accept.parentElement, reject.parentElement, 'side by side');
    trackPixel('Lead');
    await settle();
    assert.deepEqual(scripts(), [], 'no pixel script before a choice');
    assert.equal(window.fbq, undefined, 'and no event is queued for later');
    cleanup();
  });

  it('Reject: the banner goes, the choice is remembered, and nothing loads or is sent', async () => {
    page();
    await waitFor(() => assert.ok(banner()));
    await userEvent.click(screen.getByRole('button', { name: 'Reject' }));
    assert.equal(banner(), null);
    assert.equal(localStorage.getItem(COOKIE_CHOICE_KEY), 'rejected');
    trackPixel('Purchase', { value: 24, currency: 'USD' });
    await settle();
    assert.deepEqual(scripts(), []);
    assert.equal(window.fbq, undefined);
    cleanup();
    page();
    await settle();
    assert.equal(banner(), null, 'a remembered choice is not asked again');
  });

  it("the footer's Cookie settings opens it again; Accept loads the pixel and events reach it", async () => {
    await userEvent.click(screen.getByRole('button', { name: 'Cookie settings' }));
    assert.ok(banner());
    screen.getByText('Your current choice: rejected.');
    await userEvent.click(screen.getByRole('button', { name: 'Accept' }));
    assert.equal(localStorage.getItem(COOKIE_CHOICE_KEY), 'accepted');
    await waitFor(() => assert.deepEqual(scripts(), ['https://connect.facebook.net/en_US/fbevents.js']));
    assert.equal(banner(), null);
    trackPixel('Purchase', { value: 24, currency: 'USD' });
    await settle();
    assert.deepEqual(window.fbq?.queue, [
      ['init', '1234567890'],
      ['track', 'PageView'],
      ['track', 'Purchase', { value: 24, currency: 'USD' }],
    ]);
  });
});
