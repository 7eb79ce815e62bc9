// @vitest-environment jsdom
import assert from 'node:assert/strict';
import { afterEach, describe, it, vi } from 'vitest';

const json = (body: unknown) => new Response(JSON.stringify(body), { headers: { 'Content-Type': 'application/json' } });

/** A fresh copy of the pixels module (its settings are asked once per page load) over a stubbed /api/config. */
async function pixelsWith(
  pixels: { meta: string | null; tiktok: string | null },
  choice: 'accepted' | 'rejected' | null = 'accepted',
) {
  vi.resetModules();
  localStorage.clear();
  if (choice) localStorage.setItem('cookie_consent', choice);
  const asked: string[] = [];
  vi.stubGlobal('fetch', async (input: Request | string) => {
    asked.push(typeof input === 'string' ? input : new URL(input.url).pathname);
    return json({ google_client_id: null, support_email: null, pixels });
  });
  const mod = await import('./pixels');
  const config = await import('./runtime-config');
  return { ...mod, loadWebConfig: config.loadWebConfig, asked };
}

const scripts = () => [...document.querySelectorAll('script')].map((s) => s.src);

afterEach(() => {
  vi.unstubAllGlobals();
  for (const s of document.querySelectorAll('script')) s.remove();
  delete window.fbq;
  delete window.ttq;
});

describe('marketing pixels', () => {
  it('load nothing and send nothing when no pixel id is configured', async () => {
    const p = await pixelsWith({ meta: null, tiktok: null });
    p.trackPixel('Lead');
    p.trackPixel('Purchase', { value: 2.99, currency: 'USD' });
    await p.loadWebConfig();
    await Promise.resolve();
    assert.deepEqual(scripts(), []);
    assert.equal(window.fbq, undefined);
    assert.equal(window.ttq, undefined);
    assert.deepEqual(p.asked, ['/api/config'], 'the settings are asked once');
  });

  it('load nothing and send nothing before the visitor accepts, or after a reject (events are dropped, not queued)', async () => {
    for (const choice of [null, 'rejected'] as const) {
      const p = await pixelsWith({ meta: '1234567890', tiktok: 'C0FFEE42' }, choice);
      p.trackPixel('Purchase', { value: 2.99, currency: 'USD' });
      await p.startPixelsWhenAllowed();
      await p.loadWebConfig();
      p.startPixels();
      await Promise.resolve();
      assert.deepEqual(scripts(), [], String(choice));
      assert.equal(window.fbq, undefined);
      assert.equal(window.ttq, undefined);
    }
  });

  it('load only the configured pixel and queue each event for it', async () => {
    const p = await pixelsWith({ meta: '1234567890', tiktok: null });
    p.trackPixel('Purchase', { value: 2.99, currency: 'USD' });
    p.trackPixel('CompleteRegistration');
    await p.loadWebConfig();
    await Promise.resolve();
    assert.deepEqual(scripts(), ['https://connect.facebook.net/en_US/fbevents.js']);
    assert.deepEqual(window.fbq?.queue, [
      ['init', '1234567890'],
      ['track', 'PageView'],
      ['track', 'Purchase', { value: 2.99, currency: 'USD' }],
      ['track', 'CompleteRegistration', {}],
    ]);
    assert.equal(window.ttq, undefined);
  });

  it("send TikTok's names for the standard events", async () => {
    const p = await pixelsWith({ meta: null, tiktok: 'C0FFEE42' });
    const sent: unknown[] = [];
    p.trackPixel('Purchase', { value: 5, currency: 'USD' });
    await p.loadWebConfig();
    await Promise.resolve();
    assert.ok(scripts()[0]?.startsWith('https://analytics.tiktok.com/i18n/pixel/events.js?sdkid=C0FFEE42'));
    window.ttq!.track = (...a: unknown[]) => void sent.push(a);
    p.trackPixel('Lead');
    await Promise.resolve();
    await Promise.resolve();
    assert.deepEqual(sent, [['SubmitForm', {}]]);
  });
});
