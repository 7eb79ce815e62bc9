import assert from 'node:assert/strict';
import { describe, it } from 'vitest';
import { emailProblem, normalizeEmail, passwordProblem, passwordTooLong } from './credentials.js';

describe('e-mail rules', () => {
  it('normalises case and surrounding blanks, so addresses compare case-insensitively', () => {
    assert.equal(normalizeEmail('  Ada.Lovelace@Example.COM '), 'ada.lovelace@example.com');
  });

  it('accepts ordinary addresses', () => {
    for (const ok of ['a@b.co', 'first.last+tag@sub.example.org', 'X_Y@Example.com'])
      assert.equal(emailProblem(ok), undefined, ok);
  });

  it('refuses missing and malformed addresses with a message', () => {
    assert.equal(emailProblem(''), 'Email is required');
    assert.equal(emailProblem(undefined), 'Email is required');
    for (const bad of [
      'plainaddress',
      'a@b',
      '@example.com',
      'a b@example.com',
      'a@@example.com',
      'a@example.c',
      'a@-x.com',
      `${'x'.repeat(65)}@example.com`,
      `a@${'x'.repeat(250)}.com`,
    ]) {
      assert.equal(emailProblem(bad), 'Please enter a valid email address', bad);
    }
  });
});

describe('password policy', () => {
  it('needs at least 8 characters, counted as characters not bytes', () => {
    assert.equal(passwordProblem('1234567'), 'Password must be at least 8 characters long');
    assert.equal(passwordProblem('12345678'), undefined);
    assert.equal(passwordProblem('ééééééé'), 'Password must be at least 8 characters long');
    assert.equal(passwordProblem('😀😀😀😀😀😀😀😀'), undefined);
  });

  it('refuses a missing password and one too long to hash cheaply', () => {
    assert.equal(passwordProblem(''), 'Password is required');
    assert.equal(passwordProblem(42), 'Password is required');
    assert.equal(passwordProblem('x'.repeat(257)), 'Password must be at most 256 characters long');
    assert.equal(passwordProblem('x'.repeat(256)), undefined);
  });

  it('counts the upper limit in characters too: 256 characters pass, 257 do not, whatever their size', () => {
    assert.equal(passwordTooLong('x'.repeat(257)), true);
    assert.equal(passwordTooLong('x'.repeat(256)), false);
    assert.equal(passwordTooLong('😀'.repeat(256)), false);
    assert.equal(passwordProblem('😀'.repeat(256)), undefined);
    assert.equal(passwordTooLong('😀'.repeat(257)), true);
  });
});
