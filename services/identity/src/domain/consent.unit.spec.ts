import assert from 'node:assert/strict';
import { describe, it } from 'vitest';
import { CONSENT_VERSION_INVALID, consentRecord, consentVersionProblem } from './consent.js';

describe('the sign-up consent version', () => {
  it('accepts a label, or none; refuses free text, markup and anything over 64 characters', () => {
    for (const ok of ['', '2026-11-signup-18plus', 'v2', 'terms_3.1'])
      assert.equal(consentVersionProblem(ok), undefined);
    for (const bad of ['has spaces', '<script>', '-leading-dash', 'x'.repeat(65), 'ünï'])
      assert.equal(consentVersionProblem(bad), CONSENT_VERSION_INVALID, bad);
  });

  it('records the version with the instant given; nothing without a version', () => {
    const now = new Date('2026-11-27T10:00:00Z');
    assert.deepEqual(consentRecord('v2', now), { version: 'v2', at: now });
    assert.equal(consentRecord('', now), null);
  });
});
