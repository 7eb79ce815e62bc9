import assert from 'node:assert/strict';
import { describe, it } from 'vitest';
import { contentSecurityPolicy, webSettingsFromEnv } from './web-settings.js';

const thirdParty = (csp: Record<string, string[]>) =>
  Object.values(csp)
    .flat()
    .filter((v) => v.startsWith('https://'))
    .sort();

describe('web settings and the Content Security Policy', () => {
  it('allows no third-party origin when nothing is configured', () => {
    const csp = contentSecurityPolicy(webSettingsFromEnv({}));
    assert.deepEqual(thirdParty(csp), []);
    assert.ok(!Object.values(csp).flat().includes('https:'), 'no scheme-wide source either');
    assert.deepEqual(csp['script-src'], ["'self'"]);
    assert.deepEqual(csp['frame-src'], ["'none'"]);
  });

  it("allows exactly Google sign-in's origins when a client id is set", () => {
    const csp = contentSecurityPolicy(webSettingsFromEnv({ GOOGLE_CLIENT_ID: 'abc.apps.googleusercontent.com' }));
    assert.deepEqual(csp['script-src'], ["'self'", 'https://accounts.google.com/gsi/client']);
    assert.deepEqual(csp['frame-src'], ['https://accounts.google.com/gsi/']);
    assert.ok(thirdParty(csp).every((o) => o.startsWith('https://accounts.google.com/gsi/')));
  });

  it("adds each configured pixel's origins and no other's", () => {
    const meta = contentSecurityPolicy(webSettingsFromEnv({ META_PIXEL_ID: '1234567890' }));
    assert.ok(thirdParty(meta).every((o) => /facebook\.(net|com)$/.test(o)));
    assert.ok(meta['script-src']!.includes('https://connect.facebook.net'));
    const both = contentSecurityPolicy(
      webSettingsFromEnv({ META_PIXEL_ID: '1234567890', TIKTOK_PIXEL_ID: 'C0FFEE42' }),
    );
    assert.ok(both['script-src']!.includes('https://analytics.tiktok.com'));
    assert.ok(!thirdParty(both).some((o) => o.includes('google')));
  });

  it('refuses a malformed pixel id or support address with the variable named', () => {
    assert.throws(() => webSettingsFromEnv({ META_PIXEL_ID: 'abc<script>' }), /META_PIXEL_ID/);
    assert.throws(() => webSettingsFromEnv({ SUPPORT_EMAIL: 'not an address' }), /SUPPORT_EMAIL/);
  });
});
