import assert from 'node:assert/strict';
import { describe, it } from 'vitest';
import { urlSigner, urlSigningKey, verifyUrl } from './signed-url.js';

const key = Buffer.from('a key of at least thirty-two characters!');
const now = new Date('2026-03-01T12:00:00Z');
const later = (s: number) => new Date(now.getTime() + s * 1000);
const url = urlSigner(key).sign('/files/images/abc/result.jpg', now);

describe('signed URLs', () => {
  it('are accepted for the path they were made for until they expire, one hour on', () => {
    assert.match(url, /^\/files\/images\/abc\/result\.jpg\?expires=\d+&signature=[\w-]+$/);
    assert.deepEqual(verifyUrl(key, url, now), { ok: true });
    assert.deepEqual(verifyUrl(key, url, later(3599)), { ok: true });
  });

  it('are refused once expired', () => {
    assert.deepEqual(verifyUrl(key, url, later(3600)), { ok: false, reason: 'expired' });
  });

  it('are refused for a changed path', () => {
    const moved = url.replace('images/abc/result.jpg', 'images/abd/result.jpg');
    assert.deepEqual(verifyUrl(key, moved, now), { ok: false, reason: 'bad_signature' });
  });

  it('are refused with a changed signature, expiry or key', () => {
    const sig = url.split('signature=')[1]!;
    const flipped = url.replace(sig, `${sig.slice(0, -1)}${sig.endsWith('A') ? 'B' : 'A'}`);
    assert.deepEqual(verifyUrl(key, flipped, now), { ok: false, reason: 'bad_signature' });
    const extended = url.replace(/expires=(\d+)/, (_, e) => `expires=${Number(e) + 86400}`);
    assert.deepEqual(verifyUrl(key, extended, now), { ok: false, reason: 'bad_signature' });
    assert.deepEqual(verifyUrl(Buffer.from('another key'), url, now), { ok: false, reason: 'bad_signature' });
    assert.deepEqual(verifyUrl(key, url.split('&')[0]!, now), { ok: false, reason: 'malformed' });
  });

  it("use the given key; without one, the process tree's own, or refuse to start on its own", () => {
    assert.deepEqual(urlSigningKey('explicit', false), Buffer.from('explicit'));
    assert.deepEqual(urlSigningKey(undefined, true), urlSigningKey(undefined, true));
    assert.equal(urlSigningKey(undefined, true).length, 32);
    assert.throws(() => urlSigningKey(undefined, false), /IMAGE_URL_SIGNING_KEY is required/);
  });
});
